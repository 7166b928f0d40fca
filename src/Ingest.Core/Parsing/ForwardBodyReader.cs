using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;

namespace Ingest.Core.Parsing;

/// <summary>Reads a back-end request body (normalised events from a front-end) and re-checks every event.</summary>
public sealed class ForwardBodyReader(IIngestSerializer serializer)
{
    public IIngestSerializer Serializer => serializer;

    public IngestProblem? Read(ReadOnlyMemory<byte> body, List<IngestEvent> events)
    {
        if (JsonShape.IsBlank(body.Span))
        {
            return IngestProblem.Create(ProblemKind.EmptyBody, "The body is empty.");
        }

        if (JsonShape.ContainsRawControl(body.Span))
        {
            return IngestProblem.Create(ProblemKind.MalformedJson, "The body holds a raw control character: JSON requires them escaped.");
        }

        List<IngestEvent?> read;
        try
        {
            read = serializer.ReadEvents(body);
        }
        catch (IngestFormatException ex)
        {
            return IngestProblem.Create(ex.Kind, ex.Message, ex.Path);
        }

        if (read.Count == 0)
        {
            return IngestProblem.Create(ProblemKind.EmptyBody, "The batch holds no events.");
        }

        var single = read.Count == 1 && !JsonShape.StartsWithArray(body.Span);
        for (var i = 0; i < read.Count; i++)
        {
            var problem = EventValidator.CheckNormalized(read[i], single ? EventLocation.WholeBody : EventLocation.Item(i));
            if (problem is not null)
            {
                return problem;
            }
        }

        // Added only once all passed: all or nothing, as the request is.
        events.AddRange(read!);
        return null;
    }
}
