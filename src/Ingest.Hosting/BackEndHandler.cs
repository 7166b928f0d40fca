using Ingest.Core.Contract;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Core.Sinks;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting;

/// <summary>The back-end's <c>POST /ingest/data</c> and <c>GET /ingest/stats</c>, shared by every API style.</summary>
public sealed class BackEndHandler(ForwardBodyReader reader, EventPersister persister, SinkStatistics statistics, ResponseWriter writer, IOptions<IngestOptions> options)
{
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
            cancellationToken);
    }

    internal async ValueTask<Outcome> PersistAsync(ParsedRequest parsed, CancellationToken cancellationToken)
    {
        if (parsed.Problem is { } rejected)
        {
            return rejected;
        }

        // Counted before persisting: an injected fault may drop events, but the caller is told what it sent.
        var count = parsed.Events.Count;
        try
        {
            await persister.PersistAsync(parsed.Events, cancellationToken);
        }
        catch (StoreUnavailableException ex)
        {
            // Nothing of this request was acknowledged: a 503 with Retry-After tells the caller to send it again.
            return IngestProblem.StoreUnavailable(ex.Message, ex.RetryAfterSeconds);
        }

        return new Outcome(count, null);
    }

    public IngestStats Stats() => statistics.Snapshot();

    public async Task HandleAsync(HttpContext context)
    {
        var parsed = await ReadAsync(context.Request, context.RequestAborted);
        var outcome = await PersistAsync(parsed, context.RequestAborted);
        await writer.WriteOutcomeAsync(context.Response, outcome, static n => new PersistAck { Persisted = n });
    }
}
