using System.Net;
using System.Runtime.InteropServices;
using Ingest.Core.Buffers;
using Polly.Timeout;

namespace Ingest.Core.Forwarding;

/// <summary>
/// <see cref="IBackEndSender"/> for the HttpClient strategies (PerRequest, PerRequestBlocking, Static, Factory): a request
/// message per forward and back-end over the client <see cref="IBackEndClientSource"/> hands out, whose handler chain
/// holds the resilience (<see cref="BackEndResilience.CreateHandler"/>). It owns the source: disposing it disposes a
/// source that keeps a client.
/// </summary>
internal sealed class HttpClientSender(IBackEndClientSource clients, BackEndResilience resilience, ForwardingOptions options, string? sharedKey)
    : IBackEndSender, IDisposable
{
    // The resilience handler's own URI instances: it finds a request's pipeline by reference.
    private readonly IReadOnlyList<Uri> _targets = resilience.Targets;
    private readonly Version _version = options.Protocol == BackEndProtocol.Http2 ? HttpVersion.Version20 : HttpVersion.Version11;

    /// <summary>Where its clients come from: the micro benchmarks time getting one and giving it back.</summary>
    internal IBackEndClientSource Clients => clients;

    public async ValueTask<BackEndReply> SendAsync(int target, ForwardPayload payload, CancellationToken cancellationToken)
    {
        // The body in a pooled buffer held for the whole send: HttpClient's content must outlive every attempt.
        using var body = new PooledBufferWriter();
        payload.WriteBody(body);

        // One message per forward and back-end: the resilience handler re-sends it on a retry, with the same key.
        using var request = CreateRequest(_targets[target], body.WrittenMemory, payload.KeyText());
        var client = clients.Acquire();
        try
        {
            // Headers only: the forwarder reads nothing but the status and Retry-After, and with the default
            // (ResponseContentRead) HttpClient would buffer the body after the handler chain returned, outside the
            // resilience handler's deadlines, so a back-end stalling mid-body would not be bounded by them.
            using var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
            var reply = new BackEndReply((int)response.StatusCode, RetryAfter(response));
            return reply.IsSuccess || !Unsettled(request) ? reply : throw UnsettledForwards.Unknown(null, reply.Status);
        }
        catch (Exception error) when (error is not (ForwardOutcomeUnknownException or TimeoutRejectedException)
            && !cancellationToken.IsCancellationRequested && (Unsettled(request) || UnsettledForwards.MayHaveLanded(error)))
        {
            throw UnsettledForwards.Unknown(error);
        }
        finally
        {
            clients.Release(client);
        }
    }

    public void Dispose() => (clients as IDisposable)?.Dispose();

    private static bool Unsettled(HttpRequestMessage request) => request.Options.TryGetValue(UnsettledForwards.RequestOption, out var unsettled) && unsettled;

    private static int RetryAfter(HttpResponseMessage response) =>
        response.Headers.RetryAfter?.Delta is { } delta ? (int)Math.Ceiling(delta.TotalSeconds) : 0;

    /// <summary>The forward's request over the forward's body, not copied: <see cref="ByteArrayContent"/> can be read
    /// once per attempt, and the body outlives every attempt (it is returned to its pool when the send ends).</summary>
    private HttpRequestMessage CreateRequest(Uri target, ReadOnlyMemory<byte> body, string key)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, target)
        {
            Version = _version,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = MemoryMarshal.TryGetArray(body, out var segment)
                ? new ByteArrayContent(segment.Array!, segment.Offset, segment.Count)
                : new ReadOnlyMemoryContent(body),
        };
        request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/json");
        request.Headers.TryAddWithoutValidation(BackEndForwarder.IdempotencyKeyHeader, key);
        if (sharedKey is not null)
        {
            request.Headers.TryAddWithoutValidation(Security.SecurityOptions.SharedKeyHeader, sharedKey);
        }

        return request;
    }
}
