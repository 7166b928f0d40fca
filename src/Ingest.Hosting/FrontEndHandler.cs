using System.Runtime.CompilerServices;
using Ingest.Core.Contract;
using Ingest.Core.Diagnostics;
using Ingest.Core.Forwarding;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Core.Threading;
using Ingest.Hosting.Internal;
using Ingest.Hosting.Metrics;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting;

/// <summary>
/// The front-end's <c>POST /ingest/event</c>, in two halves every API style shares: <see cref="ReadAsync"/>
/// (content type, body, parse, validate, normalise) and <see cref="ForwardAsync"/> (to the back-ends).
/// MVC runs the first half in its input formatter and the second in its action; the other styles run both.
/// </summary>
public sealed class FrontEndHandler(
    IngestRequestReader reader,
    IEventForwarder forwarder,
    ResponseWriter writer,
    IOptions<IngestOptions> options,
    ILogger<FrontEndHandler> logger,
    IngestMetrics? metrics = null)
{
    private readonly int _maxBodyBytes = options.Value.MaxBodyBytes;

    public ResponseWriter Writer => writer;

    public ValueTask<ParsedRequest> ReadAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        if (!MediaTypes.TryGetFormat(request.ContentType, out var format))
        {
            return ValueTask.FromResult(ParsedRequest.Rejected(UnsupportedMediaType(request.ContentType)));
        }

        return RequestBodyReader.ReadEventsAsync(
            request,
            _maxBodyBytes,
            (reader, format),
            static (state, body, events) => state.reader.Read(body, state.format, events),
            logger,
            cancellationToken);
    }

    // Pooled: a forward nearly always suspends here, once per request in flight.
    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    internal async ValueTask<Outcome> ForwardAsync(ParsedRequest parsed, CancellationToken cancellationToken)
    {
        var outcome = parsed.Problem is { } rejected
            ? rejected
            : await forwarder.ForwardAsync(parsed.Events, cancellationToken) ?? new Outcome(parsed.Events.Count, null);
        if (outcome.Problem is null)
        {
            metrics?.Accepted(parsed.Events);
        }

        IngestCounters.Log.Answered(outcome);
        return outcome;
    }

    /// <summary>Both halves, then the answer: for the styles that own the whole request.</summary>
    public async Task HandleAsync(HttpContext context)
    {
        var parsed = await ReadAsync(context.Request, context.RequestAborted);
        var outcome = await ForwardAsync(parsed, context.RequestAborted);
        await writer.WriteOutcomeAsync(context.Response, outcome, static n => new IngestAck { Accepted = n });
    }

    internal static IngestProblem UnsupportedMediaType(string? contentType) =>
        IngestProblem.Create(ProblemKind.UnsupportedMediaType,
            $"Content-Type '{contentType}' is not accepted: send {MediaTypes.Json} or {MediaTypes.Ndjson} (UTF-8).");
}
