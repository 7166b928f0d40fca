using Ingest.Core.Events;
using Ingest.Core.Parsing;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// The front-end's request reader (<see cref="IngestRequestReader"/>): JSON, batches and NDJSON, read, validated and
/// normalised. Input: one selector byte — serializer <c>b % 3</c>, NDJSON when <c>b / 3</c> is odd (so '0' to '2' are
/// JSON with each serializer, '3' to '5' NDJSON) — then the body. Properties: a 4xx problem or events the back-end's
/// check accepts, and those events survive the forward to the back-end unchanged.
/// </summary>
internal sealed class RequestReaderTarget : IFuzzTarget
{
    public string Name => "RequestReader";

    public void Run(ReadOnlySpan<byte> input)
    {
        var selector = SelectorInput.Selector(input);
        var serializer = FuzzSerializers.Pick(selector);
        var format = selector / FuzzSerializers.Count % 2 == 0 ? PayloadFormat.Json : PayloadFormat.Ndjson;
        var events = new List<IngestEvent>();
        var problem = FuzzSerializers.RequestReader(serializer).Read(SelectorInput.Body(input).ToArray(), format, events);
        EventChecks.ProblemOrValidEvents(problem, events);
        if (problem is null)
        {
            EventChecks.SurvivesTheForward(events, serializer);
        }
    }
}
