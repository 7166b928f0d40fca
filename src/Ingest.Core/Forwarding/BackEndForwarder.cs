using System.Net;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;
using Ingest.Core.Threading;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Polly.CircuitBreaker;
using Polly.Timeout;

namespace Ingest.Core.Forwarding;

/// <summary>
/// Forwards a list of events to every back-end as one <c>POST /ingest/data</c> each, with the configured client
/// strategy and protocol (the strategy's <see cref="IBackEndSender"/>). Resilience is around every send
/// (<see cref="BackEndResilience"/>): an overall
/// timeout, retries (safe: every forward carries an <c>Idempotency-Key</c> the back-end persists once, and every
/// attempt re-sends the same key and body), a circuit breaker per back-end shared by every client so a dead one costs
/// microseconds, and an attempt timeout. Outcomes map to the contract's 502, 503 and 504 — 504 also when an attempt
/// may have been persisted before its answer was lost (<see cref="UnsettledForwards"/>).
/// </summary>
public sealed partial class BackEndForwarder : IEventForwarder
{
    public const string DataPath = "/ingest/data";

    /// <summary>The header that lets the back-end persist a retried forward once (IETF draft-ietf-httpapi-idempotency-key-header).</summary>
    public const string IdempotencyKeyHeader = "Idempotency-Key";

    private readonly IBackEndSender _sender;
    private readonly IIngestSerializer _serializer;
    private readonly ILogger<BackEndForwarder> _logger;
    private readonly IReadOnlyList<Uri> _targets;
    private readonly ForwardingOptions _options;
    private readonly bool _blocking;
    private readonly IngestMetrics? _metrics;

    public BackEndForwarder(
        IBackEndSender sender,
        BackEndResilience resilience,
        IIngestSerializer serializer,
        IOptions<ForwardingOptions> options,
        ILogger<BackEndForwarder> logger,
        IngestMetrics? metrics = null)
    {
        _metrics = metrics;
        _options = options.Value;
        _sender = sender;
        _serializer = serializer;
        _logger = logger;
        _targets = resilience.Targets;
        _blocking = _options.ClientStrategy == ClientStrategy.PerRequestBlocking;
    }

    public IReadOnlyList<Uri> Targets => _targets;

    // Pooled builder: the state machine of a forward that completes asynchronously (almost all of them)
    // is reused instead of allocated per request (as SendAsync's below).
    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    public async ValueTask<IngestProblem?> ForwardAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        // One key per forward, shared by its retries and by every back-end. The body is written by each sender where it
        // needs the bytes, so no buffer is held per forward in flight (ForwardPayload says why).
        var payload = new ForwardPayload(events, _serializer, Guid.NewGuid());
        if (_targets.Count == 1)
        {
            return _blocking ? SendBlocking(0, payload, cancellationToken) : await SendAsync(0, payload, cancellationToken);
        }

        var sends = new Task<IngestProblem?>[_targets.Count];
        for (var i = 0; i < _targets.Count; i++)
        {
            sends[i] = _blocking ? Task.FromResult(SendBlocking(i, payload, cancellationToken)) : SendAsync(i, payload, cancellationToken).AsTask();
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
    private IngestProblem? SendBlocking(int target, ForwardPayload payload, CancellationToken cancellationToken)
    {
        try
        {
#pragma warning disable VSTHRD002, CA1849 // The blocking wait is the behaviour being measured.
            return SendAsync(target, payload, cancellationToken).AsTask().Result;
#pragma warning restore VSTHRD002, CA1849
        }
        catch (AggregateException ex) when (ex.InnerException is not null)
        {
            ExceptionDispatchInfo.Throw(ex.InnerException);
            throw;
        }
    }

    // One async method per back-end call, the metrics kept around it when they are on, the answer and the failures
    // mapped by the synchronous methods below (each async layer is a state machine box per forward in flight, kept for
    // reuse by the pooled builder).
    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private async ValueTask<IngestProblem?> SendAsync(int index, ForwardPayload payload, CancellationToken cancellationToken)
    {
        var started = 0L;
        if (_metrics is not null)
        {
            started = TimeProvider.System.GetTimestamp();
            _metrics.ForwardStarted();
        }

        IngestProblem? problem = null;
        try
        {
            var target = _targets[index];
            try
            {
                return problem = Problem(target, await _sender.SendAsync(index, payload, cancellationToken));
            }
            catch (Exception error) when (error is TimeoutRejectedException or ForwardOutcomeUnknownException or BrokenCircuitException or HttpRequestException)
            {
                return problem = Problem(target, error);
            }
        }
        finally
        {
            if (_metrics is not null)
            {
                _metrics.ForwardEnded();
                _metrics.Forwarded(Outcome(problem, cancellationToken), TimeProvider.System.GetElapsedTime(started).TotalSeconds);
            }
        }
    }

    // A caller's abort (no problem, cancelled) is its own outcome, not counted as a success.
    private static string Outcome(IngestProblem? problem, CancellationToken cancellationToken) => problem?.Kind() switch
    {
        null => cancellationToken.IsCancellationRequested ? "aborted" : "ok",
        ProblemKind.BackEndTimeout => "backend-timeout",
        ProblemKind.Overloaded or ProblemKind.StoreUnavailable => "backend-unavailable",
        _ => "backend-failed",
    };

    private IngestProblem? Problem(Uri target, BackEndReply reply)
    {
        if (reply.IsSuccess)
        {
            return null;
        }

        LogRejected(_logger, target, reply.Status);
        return reply.Status == (int)HttpStatusCode.ServiceUnavailable
            ? IngestProblem.Overloaded($"The back-end {target.Authority} is unavailable (its store is down or it sheds load).", Math.Max(1, reply.RetryAfterSeconds))
            : IngestProblem.Create(ProblemKind.BackEndFailed, $"The back-end {target.Authority} answered {reply.Status}.");
    }

    private IngestProblem Problem(Uri target, Exception error)
    {
        switch (error)
        {
            case TimeoutRejectedException:
                LogTimedOut(_logger, target, _options.TimeoutMilliseconds);
                return IngestProblem.Create(ProblemKind.BackEndTimeout, $"The back-end {target.Authority} did not answer within {_options.TimeoutMilliseconds} ms.");
            case ForwardOutcomeUnknownException unknown:
                LogUnsettled(_logger, target, unknown.Message);
                return IngestProblem.Create(ProblemKind.BackEndTimeout, $"The back-end {target.Authority} did not confirm the forward: {unknown.Message}. Its outcome is unknown.");
            case BrokenCircuitException open:
                var seconds = Math.Max(1, (int)Math.Ceiling((open.RetryAfter ?? TimeSpan.FromSeconds(_options.BreakerBreakSeconds)).TotalSeconds));
                return IngestProblem.Overloaded($"The back-end {target.Authority} is failing: its circuit is open, forwards are refused for now.", seconds);
            default:
                var failed = (HttpRequestException)error;
                LogFailed(_logger, target, failed.HttpRequestError, failed.Message);
                return IngestProblem.Create(ProblemKind.BackEndFailed, $"The back-end {target.Authority} could not be reached: {failed.HttpRequestError}.");
        }
    }

    [LoggerMessage(EventId = 100, Level = LogLevel.Debug, Message = "Back-end {Target} answered {Status}.")]
    private static partial void LogRejected(ILogger logger, Uri target, int status);

    [LoggerMessage(EventId = 101, Level = LogLevel.Debug, Message = "Back-end {Target} timed out after {TimeoutMs} ms.")]
    private static partial void LogTimedOut(ILogger logger, Uri target, int timeoutMs);

    [LoggerMessage(EventId = 103, Level = LogLevel.Debug, Message = "Back-end {Target} left a forward unsettled: {Message}")]
    private static partial void LogUnsettled(ILogger logger, Uri target, string message);

    [LoggerMessage(EventId = 102, Level = LogLevel.Debug, Message = "Back-end {Target} failed: {Error} {Message}")]
    private static partial void LogFailed(ILogger logger, Uri target, HttpRequestError error, string message);
}
