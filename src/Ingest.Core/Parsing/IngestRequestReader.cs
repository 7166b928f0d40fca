using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;

namespace Ingest.Core.Parsing;

/// <summary>
/// Turns a front-end request body into normalised events: splits batches (JSON array or NDJSON), reads
/// each event with the configured serializer, validates and normalises it. All or nothing: one invalid
/// event rejects the request, so nothing of it is forwarded.
/// </summary>
public sealed class IngestRequestReader(IIngestSerializer serializer, TimeProvider time, int maxBatchEvents)
{
    public IIngestSerializer Serializer => serializer;

    public int MaxBatchEvents => maxBatchEvents;

    /// <summary>Reads <paramref name="body"/> into <paramref name="events"/>; returns the problem when it cannot, and
    /// then adds nothing to <paramref name="events"/> (all or nothing, as the request is).</summary>
    public IngestProblem? Read(ReadOnlyMemory<byte> body, PayloadFormat format, List<IngestEvent> events)
    {
        var before = events.Count;
        var problem = ReadAll(body, format, events);
        if (problem is not null)
        {
            events.RemoveRange(before, events.Count - before);
        }

        return problem;
    }

    private IngestProblem? ReadAll(ReadOnlyMemory<byte> body, PayloadFormat format, List<IngestEvent> events)
    {
        body = Trim(body);
        if (body.IsEmpty)
        {
            return IngestProblem.Create(ProblemKind.EmptyBody, "The body is empty.");
        }

        if (JsonShape.ContainsRawControl(body.Span))
        {
            return IngestProblem.Create(ProblemKind.MalformedJson, "The body holds a raw control character (U+0000 to U+001F other than tab and line breaks): JSON requires them escaped.");
        }

        var receivedAt = time.GetUtcNow().UtcDateTime;
        return format == PayloadFormat.Ndjson
            ? ReadNdjson(body, receivedAt, events)
            : ReadJson(body, receivedAt, events);
    }

    private IngestProblem? ReadJson(ReadOnlyMemory<byte> body, DateTime receivedAt, List<IngestEvent> events)
    {
        if (body.Span[0] != (byte)'[')
        {
            return ReadOne(body, EventLocation.WholeBody, receivedAt, events);
        }

        List<EventDocument?> documents;
        try
        {
            documents = serializer.ReadDocuments(body);
        }
        catch (IngestFormatException ex)
        {
            return IngestProblem.Create(ex.Kind, ex.Message, ex.Path);
        }

        if (documents.Count == 0)
        {
            return IngestProblem.Create(ProblemKind.EmptyBody, "The batch holds no events.");
        }

        if (documents.Count > maxBatchEvents)
        {
            return TooManyEvents();
        }

        for (var i = 0; i < documents.Count; i++)
        {
            var problem = EventValidator.TryNormalize(documents[i], EventLocation.Item(i), receivedAt, serializer, out var normalized);
            if (problem is not null)
            {
                return problem;
            }

            events.Add(normalized!);
        }

        return null;
    }

    private IngestProblem? ReadNdjson(ReadOnlyMemory<byte> body, DateTime receivedAt, List<IngestEvent> events)
    {
        var index = 0;
        var rest = body;
        while (!rest.IsEmpty)
        {
            var newline = rest.Span.IndexOf((byte)'\n');
            var line = newline < 0 ? rest : rest[..newline];
            rest = newline < 0 ? default : rest[(newline + 1)..];
            line = Trim(line);
            if (line.IsEmpty)
            {
                continue;
            }

            if (index == maxBatchEvents)
            {
                return TooManyEvents();
            }

            var problem = ReadOne(line, EventLocation.Item(index++), receivedAt, events);
            if (problem is not null)
            {
                return problem;
            }
        }

        return index == 0 ? IngestProblem.Create(ProblemKind.EmptyBody, "The body holds only blank lines.") : null;
    }

    private IngestProblem? ReadOne(ReadOnlyMemory<byte> json, EventLocation location, DateTime receivedAt, List<IngestEvent> events)
    {
        EventDocument? document;
        try
        {
            document = serializer.ReadDocument(json);
        }
        catch (IngestFormatException ex)
        {
            return IngestProblem.Create(ex.Kind, ex.Message, location.Rebase(ex.Path));
        }

        var problem = EventValidator.TryNormalize(document, location, receivedAt, serializer, out var normalized);
        if (problem is null)
        {
            events.Add(normalized!);
        }

        return problem;
    }

    private IngestProblem TooManyEvents() =>
        IngestProblem.Create(ProblemKind.PayloadTooLarge, $"A batch may hold at most {maxBatchEvents} events.");

    private static ReadOnlyMemory<byte> Trim(ReadOnlyMemory<byte> memory)
    {
        var span = memory.Span;
        var start = span.Length - JsonShape.TrimStart(span).Length;
        var end = span.TrimEnd(" \t\r\n"u8).Length;
        return end <= start ? default : memory[start..end];
    }
}
