using Ingest.Core.Contract;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Core.Sinks;
using Ingest.Hosting.Internal;
using Ingest.Hosting.Metrics;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting;

/// <summary>The back-end's <c>POST /ingest/data</c> and <c>GET /ingest/stats</c>, shared by every API style.</summary>
public sealed partial class BackEndHandler(
    ForwardBodyReader reader,
    EventPersister persister,
    IdempotencyGuard idempotency,
    SinkStatistics statistics,
    ResponseWriter writer,
    IOptions<IngestOptions> options,
    ILogger<BackEndHandler> logger)
{
    /// <summary>Longest Idempotency-Key honoured; a longer one is ignored (the forward is then persisted as is).</summary>
    private const int MaxKeyLength = 128;

    /// <summary>Seconds a caller should wait after the store failed.</summary>
    private const int StoreRetryAfterSeconds = 1;

    private readonly int _maxBodyBytes = options.Value.MaxBodyBytes;

    public ResponseWriter Writer => writer;

    public ValueTask<ParsedRequest> ReadAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        if (!MediaTypes.TryGetFormat(request.ContentType, out var format) || format != PayloadFormat.Json)
        {
            return ValueTask.FromResult(ParsedRequest.Rejected(IngestProblem.Create(ProblemKind.UnsupportedMediaType,
                $"Content-Type '{request.ContentType}' is not accepted: send {MediaTypes.Json}.")));
        }

        return RequestBodyReader.ReadEventsAsync(
            request,
            _maxBodyBytes,
            reader,
            static (reader, body, events) => reader.Read(body, events),
            logger,
            cancellationToken);
    }

    internal async ValueTask<Outcome> PersistAsync(ParsedRequest parsed, string? idempotencyKey, CancellationToken cancellationToken)
    {
        var outcome = parsed.Problem is { } rejected ? rejected : await PersistEventsAsync(parsed.Events, idempotencyKey, cancellationToken);
        IngestCounters.Log.Answered(outcome);
        return outcome;
    }

    private async ValueTask<Outcome> PersistEventsAsync(List<IngestEvent> events, string? idempotencyKey, CancellationToken cancellationToken)
    {
        // Counted before persisting: an injected fault may drop events, but the caller is told what it sent.
        var count = events.Count;
        var persisted = false;
        try
        {
            if (idempotencyKey is { Length: > 0 and <= MaxKeyLength })
            {
                await idempotency.RunOnceAsync(idempotencyKey, async token =>
                {
                    await persister.PersistAsync(events, token);
                    persisted = true;
                }, cancellationToken);
            }
            else
            {
                await persister.PersistAsync(events, cancellationToken);
            }
        }
        catch (Exception ex) when (persisted)
        {
            // The store has the events; what failed came after (a service at its memory limit can fail any allocation).
            // Answering 503 would tell the caller nothing was persisted and invite a retry of events already stored.
            LogFailedAfterPersist(logger, ex.GetType().Name, ex.Message);
            return new Outcome(count, null);
        }
        catch (StoreUnavailableException ex)
        {
            // A store sink said so itself (and logged the outage once): its message and its Retry-After.
            return IngestProblem.StoreUnavailable(ex.Message, ex.RetryAfterSeconds);
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            // A store that fails is never a silent loss: the caller hears 503 and retries (the key makes that safe).
            LogStoreFailed(logger, ex.GetType().Name, ex.Message);
            return IngestProblem.WithRetryAfter(ProblemKind.StoreUnavailable, $"The store did not take the events: {ex.GetType().Name}.", StoreRetryAfterSeconds);
        }

        return new Outcome(count, null);
    }

    public static string? IdempotencyKey(HttpRequest request) =>
        request.Headers.TryGetValue(Core.Forwarding.BackEndForwarder.IdempotencyKeyHeader, out var values) ? values.ToString() : null;

    public IngestStats Stats() => statistics.Snapshot();

    [LoggerMessage(EventId = 201, Level = LogLevel.Warning, Message = "The events were persisted, then the request failed ({Error}): {Message}; answered as persisted")]
    private static partial void LogFailedAfterPersist(ILogger logger, string error, string message);

    [LoggerMessage(EventId = 200, Level = LogLevel.Warning, Message = "The store failed ({Error}): {Message}")]
    private static partial void LogStoreFailed(ILogger logger, string error, string message);

    public async Task HandleAsync(HttpContext context)
    {
        var parsed = await ReadAsync(context.Request, context.RequestAborted);
        var outcome = await PersistAsync(parsed, IdempotencyKey(context.Request), context.RequestAborted);
        await writer.WriteOutcomeAsync(context.Response, outcome, static n => new PersistAck { Persisted = n });
    }
}
