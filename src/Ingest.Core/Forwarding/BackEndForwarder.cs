using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using Ingest.Core.Buffers;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>
/// Forwards a list of events to every back-end as one <c>POST /ingest/data</c> each, with the configured
/// client strategy, protocol and timeout, and maps the outcome to the contract's 502, 503 and 504.
/// </summary>
public sealed partial class BackEndForwarder : IEventForwarder
{
    public const string DataPath = "/ingest/data";

    private readonly IBackEndClientSource _clients;
    private readonly IIngestSerializer _serializer;
    private readonly ILogger<BackEndForwarder> _logger;
    private readonly Uri[] _targets;
    private readonly Version _version;
    private readonly TimeSpan _timeout;
    private readonly bool _blocking;
    private readonly IngestMetrics? _metrics;

    public BackEndForwarder(IBackEndClientSource clients, IIngestSerializer serializer, IOptions<ForwardingOptions> options, ILogger<BackEndForwarder> logger, IngestMetrics? metrics = null)
    {
        _metrics = metrics;
        var o = options.Value;
        _clients = clients;
        _serializer = serializer;
        _logger = logger;
        _targets = Array.ConvertAll(o.BackEnds, b => new Uri(new Uri(b), DataPath));
        _version = o.Protocol == BackEndProtocol.Http2 ? System.Net.HttpVersion.Version20 : System.Net.HttpVersion.Version11;
        _timeout = TimeSpan.FromMilliseconds(o.TimeoutMilliseconds);
        _blocking = clients.Strategy == ClientStrategy.PerRequestBlocking;
    }

    public IReadOnlyList<Uri> Targets => _targets;

    // Pooled builder: the state machine of a forward that completes asynchronously (almost all of them)
    // is reused instead of allocated per request.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<IngestProblem?> ForwardAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        using var body = new PooledBufferWriter();
        _serializer.WriteEvents(body, events);

        if (_targets.Length == 1)
        {
            return _blocking ? SendBlocking(_targets[0], body, cancellationToken) : await SendAsync(_targets[0], body, cancellationToken);
        }

        var sends = new Task<IngestProblem?>[_targets.Length];
        for (var i = 0; i < _targets.Length; i++)
        {
            sends[i] = _blocking ? Task.FromResult(SendBlocking(_targets[i], body, cancellationToken)) : SendAsync(_targets[i], body, cancellationToken);
        }

        foreach (var problem in await Task.WhenAll(sends))
        {
            if (problem is not null)
            {
                return problem;
            }
        }

        return null;
    }

    // The 2016 original's shape: the request thread waits on .Result, holding a thread-pool thread for the
    // whole round trip. Deliberately kept for the PerRequestBlocking strategy.
    private IngestProblem? SendBlocking(Uri target, PooledBufferWriter body, CancellationToken cancellationToken)
    {
        try
        {
#pragma warning disable VSTHRD002, CA1849 // The blocking wait is the behaviour being measured.
            return SendAsync(target, body, cancellationToken).Result;
#pragma warning restore VSTHRD002, CA1849
        }
        catch (AggregateException ex) when (ex.InnerException is not null)
        {
            ExceptionDispatchInfo.Throw(ex.InnerException);
            throw;
        }
    }

    private async Task<IngestProblem?> SendAsync(Uri target, PooledBufferWriter body, CancellationToken cancellationToken)
    {
        if (_metrics is null)
        {
            return await SendOnceAsync(target, body, cancellationToken);
        }

        var started = TimeProvider.System.GetTimestamp();
        _metrics.ForwardStarted();
        IngestProblem? problem = null;
        try
        {
            return problem = await SendOnceAsync(target, body, cancellationToken);
        }
        finally
        {
            _metrics.ForwardEnded();
            _metrics.Forwarded(Outcome(problem, cancellationToken), TimeProvider.System.GetElapsedTime(started).TotalSeconds);
        }
    }

    // A caller's abort (no problem, cancelled) is its own outcome, not counted as a success.
    private static string Outcome(IngestProblem? problem, CancellationToken cancellationToken) => problem?.Kind() switch
    {
        null => cancellationToken.IsCancellationRequested ? "aborted" : "ok",
        ProblemKind.BackEndTimeout => "backend-timeout",
        ProblemKind.StoreUnavailable => "store-unavailable",
        _ => "backend-failed",
    };

    private async Task<IngestProblem?> SendOnceAsync(Uri target, PooledBufferWriter body, CancellationToken cancellationToken)
    {
        var client = _clients.Acquire();

        // One linked source per forward: it carries both the caller's abort and our timeout. Allocated
        // deliberately; a reset-and-reuse pool would have to prove no timer callback can still fire.
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_timeout);
        try
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, target)
            {
                Version = _version,
                VersionPolicy = HttpVersionPolicy.RequestVersionExact,
                Content = new ByteArrayContent(body.UnderlyingArray, 0, body.WrittenCount),
            };
            request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/json");

            using var response = await client.SendAsync(request, timeout.Token);
            if (response.IsSuccessStatusCode)
            {
                return null;
            }

            LogRejected(_logger, target, (int)response.StatusCode);
            if (response.StatusCode == System.Net.HttpStatusCode.ServiceUnavailable)
            {
                // The back-end (or its store) asks for a retry: pass that on with its Retry-After, not as a 502, so
                // the caller retries instead of giving the events up.
                return IngestProblem.StoreUnavailable($"The back-end {target.Authority} cannot take events now (503).", RetryAfter(response));
            }

            return IngestProblem.Create(ProblemKind.BackEndFailed, $"The back-end {target.Authority} answered {(int)response.StatusCode}.");
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            LogTimedOut(_logger, target, (int)_timeout.TotalMilliseconds);
            return IngestProblem.Create(ProblemKind.BackEndTimeout, $"The back-end {target.Authority} did not answer within {(int)_timeout.TotalMilliseconds} ms.");
        }
        catch (HttpRequestException ex)
        {
            LogFailed(_logger, target, ex.HttpRequestError, ex.Message);
            return IngestProblem.Create(ProblemKind.BackEndFailed, $"The back-end {target.Authority} could not be reached: {ex.HttpRequestError}.");
        }
        finally
        {
            _clients.Release(client);
        }
    }

    /// <summary>The back-end's Retry-After in whole seconds (delta form), 1 when absent, at most a minute.</summary>
    private static int RetryAfter(HttpResponseMessage response)
    {
        const int Default = 1, Max = 60;
        if (response.Headers.RetryAfter?.Delta is { } delta)
        {
            return (int)Math.Clamp(Math.Ceiling(delta.TotalSeconds), 0, Max);
        }

        return response.Headers.RetryAfter?.Date is { } date
            ? (int)Math.Clamp(Math.Ceiling((date - DateTimeOffset.UtcNow).TotalSeconds), 0, Max)
            : Default;
    }

    [LoggerMessage(EventId = 100, Level = LogLevel.Debug, Message = "Back-end {Target} answered {Status}.")]
    private static partial void LogRejected(ILogger logger, Uri target, int status);

    [LoggerMessage(EventId = 101, Level = LogLevel.Debug, Message = "Back-end {Target} timed out after {TimeoutMs} ms.")]
    private static partial void LogTimedOut(ILogger logger, Uri target, int timeoutMs);

    [LoggerMessage(EventId = 102, Level = LogLevel.Debug, Message = "Back-end {Target} failed: {Error} {Message}")]
    private static partial void LogFailed(ILogger logger, Uri target, HttpRequestError error, string message);
}
