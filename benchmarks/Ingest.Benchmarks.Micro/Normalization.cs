using Ingest.Core.Events;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;

namespace Ingest.Benchmarks.Micro;

/// <summary>The front-end's validate-and-normalize step as the benchmarks call it: a document that does not
/// normalize is a broken benchmark, not a result.</summary>
internal static class Normalization
{
    public static IngestEvent Normalize(EventDocument document, DateTime receivedAt, IIngestSerializer serializer)
    {
        if (EventValidator.TryNormalize(document, EventLocation.WholeBody, receivedAt, serializer, out var normalized) is { } problem)
        {
            throw new InvalidOperationException(problem.Detail);
        }

        return normalized!;
    }
}
