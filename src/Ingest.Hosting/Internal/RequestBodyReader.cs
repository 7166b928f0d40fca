using System.Buffers;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Internal;

/// <summary>
/// Reads a whole request body from the body pipe into one pooled array, enforcing the size limit as it goes,
/// so a client cannot make the service buffer more than <c>Ingest:MaxBodyBytes</c>. Every API style reads
/// bodies here.
/// </summary>
internal static class RequestBodyReader
{
    // Enough for the classic payload and small batches without growing; Content-Length sizes it exactly otherwise.
    private const int InitialSize = 4096;

    /// <summary>Reads the body and hands it to <paramref name="parse"/>, which fills the event list or names the
    /// problem; the pooled buffer is returned before the events travel on (they own their strings).</summary>
    public static async ValueTask<ParsedRequest> ReadEventsAsync<TState>(
        HttpRequest request,
        int maxBytes,
        TState state,
        Func<TState, ReadOnlyMemory<byte>, List<IngestEvent>, IngestProblem?> parse,
        CancellationToken cancellationToken)
    {
        var (body, problem) = await ReadAsync(request, maxBytes, cancellationToken);
        if (problem is not null)
        {
            return ParsedRequest.Rejected(problem);
        }

        // The request's events, held while they are forwarded or persisted: one list per request, deliberately.
        var events = new List<IngestEvent>();
        try
        {
            problem = parse(state, body.Memory, events);
        }
        finally
        {
            body.Return();
        }

        return problem is null ? ParsedRequest.Accepted(events) : ParsedRequest.Rejected(problem);
    }

    public static async ValueTask<(PooledBody Body, IngestProblem? Problem)> ReadAsync(HttpRequest request, int maxBytes, CancellationToken cancellationToken)
    {
        if (request.ContentLength > maxBytes)
        {
            return (default, TooLarge(maxBytes));
        }

        var array = ArrayPool<byte>.Shared.Rent((int)(request.ContentLength ?? InitialSize));
        var length = 0;
        var reader = request.BodyReader;
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync(cancellationToken);
                var buffer = result.Buffer;
                if (length + buffer.Length > maxBytes)
                {
                    reader.AdvanceTo(buffer.End);
                    ArrayPool<byte>.Shared.Return(array);
                    return (default, TooLarge(maxBytes));
                }

                if (length + buffer.Length > array.Length)
                {
                    var bigger = ArrayPool<byte>.Shared.Rent((int)Math.Max(array.Length * 2L, length + buffer.Length));
                    array.AsSpan(0, length).CopyTo(bigger);
                    ArrayPool<byte>.Shared.Return(array);
                    array = bigger;
                }

                buffer.CopyTo(array.AsSpan(length));
                length += (int)buffer.Length;
                reader.AdvanceTo(buffer.End);
                if (result.IsCompleted)
                {
                    return (new PooledBody(array, length), null);
                }
            }
        }
        catch (BadHttpRequestException ex)
        {
            // Kestrel's own verdicts on the body: truncated content, bad chunking, its size limit.
            ArrayPool<byte>.Shared.Return(array);
            var problem = ex.StatusCode switch
            {
                StatusCodes.Status413PayloadTooLarge => TooLarge(maxBytes),
                StatusCodes.Status408RequestTimeout => IngestProblem.Create(ProblemKind.RequestTimeout, $"The body arrived too slowly: {ex.Message}"),
                _ => IngestProblem.Create(ProblemKind.MalformedJson, $"The request body could not be read: {ex.Message}"),
            };
            return (default, problem);
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(array);
            throw;
        }
    }

    private static IngestProblem TooLarge(int maxBytes) =>
        IngestProblem.Create(ProblemKind.PayloadTooLarge, $"The body is larger than {maxBytes} bytes.");
}
