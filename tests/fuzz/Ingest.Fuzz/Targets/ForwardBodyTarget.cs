using Ingest.Core.Events;
using Ingest.Core.Parsing;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// The back-end's forward-body reader (<see cref="ForwardBodyReader"/>): it trusts no caller, so whatever arrives is
/// read and re-checked. Input: one selector byte (serializer <c>b % 3</c>), then the body. Property: a 4xx problem or
/// events that pass the back-end's check, all or nothing.
/// </summary>
internal sealed class ForwardBodyTarget : IFuzzTarget
{
    public string Name => "ForwardBody";

    public void Run(ReadOnlySpan<byte> input)
    {
        var selector = SelectorInput.Selector(input);
        var serializer = FuzzSerializers.Pick(selector);
        var events = new List<IngestEvent>();
        var problem = FuzzSerializers.ForwardReader(serializer).Read(SelectorInput.Body(input).ToArray(), events);
        EventChecks.ProblemOrValidEvents(problem, events);
    }
}
