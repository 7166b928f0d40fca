using System.Text;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Validation;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// The classic payload's inner document: <see cref="RelaxedJson"/>'s single-quote rewrite, then each serializer's
/// <c>ReadInnerDocument</c> and the validator, as <see cref="EventValidator.TryNormalize"/> runs them for
/// <c>{"data": "..."}</c>. Input: the inner document's text. Properties: the rewrite stays within
/// <see cref="RelaxedJson.MaxStrictLength"/> and leaves a document without single quotes as it was; every serializer
/// answers a 4xx problem or a job event the back-end accepts.
/// </summary>
internal sealed class RelaxedJsonTarget : IFuzzTarget
{
    public string Name => "RelaxedJson";

    public void Run(ReadOnlySpan<byte> input)
    {
        var relaxed = Encoding.UTF8.GetString(input);
        var hasSingleQuote = relaxed.Contains('\'', StringComparison.Ordinal);
        FuzzPropertyException.Check(RelaxedJson.NeedsRewrite(relaxed) == hasSingleQuote, "a rewrite is needed exactly when there is a single quote");

        var strict = new char[RelaxedJson.MaxStrictLength(relaxed.Length)];
        if (RelaxedJson.TryToStrict(relaxed, strict, out var written))
        {
            FuzzPropertyException.Check(written <= strict.Length, "the rewrite fits MaxStrictLength");
            FuzzPropertyException.Check(hasSingleQuote || strict.AsSpan(0, written).SequenceEqual(relaxed), "a document without single quotes is left as it was");
        }

        foreach (var serializer in FuzzSerializers.All)
        {
            var problem = EventValidator.TryNormalize(new EventDocument { Data = relaxed }, EventLocation.WholeBody, FuzzSerializers.ReceivedAt, serializer, out var normalized);
            EventChecks.ProblemOrValidEvents(problem, normalized is null ? [] : [normalized]);
            FuzzPropertyException.Check(problem is not null || normalized?.Type == EventType.Job, "a classic payload is a job event");
        }
    }
}
