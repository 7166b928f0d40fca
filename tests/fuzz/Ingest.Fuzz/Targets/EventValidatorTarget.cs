using System.Globalization;
using System.Text;
using Ingest.Core.Events;
using Ingest.Core.Validation;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// The validator and normaliser (<see cref="EventValidator.TryNormalize"/>), without JSON in the way. Input: one
/// selector byte (the serializer for a classic inner document, <c>b % 3</c>), then the event's members one per line in
/// the order of <see cref="Members"/>; a member past the last line is absent (null), "value" is read as an invariant
/// number (NaN and Infinity included). Properties: a 4xx problem, or an event the back-end's check accepts and that
/// survives the forward unchanged.
/// </summary>
internal sealed class EventValidatorTarget : IFuzzTarget
{
    /// <summary>The line order of the input; documentation for the seed files.</summary>
    public static readonly string[] Members = ["type", "source", "timestamp", "job_id", "container_id", "status", "name", "value", "unit", "level", "message", "data"];

    public string Name => "EventValidator";

    public void Run(ReadOnlySpan<byte> input)
    {
        var selector = SelectorInput.Selector(input);
        var serializer = FuzzSerializers.Pick(selector);
        var lines = Encoding.UTF8.GetString(SelectorInput.Body(input)).Split('\n');
        string? Member(int i) => i < lines.Length ? lines[i] : null;
        var document = new EventDocument
        {
            Type = Member(0),
            Source = Member(1),
            Timestamp = Member(2),
            JobId = Member(3),
            ContainerId = Member(4),
            Status = Member(5),
            Name = Member(6),
            Value = double.TryParse(Member(7), NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null,
            Unit = Member(8),
            Level = Member(9),
            Message = Member(10),
            Data = Member(11),
        };

        var problem = EventValidator.TryNormalize(document, EventLocation.WholeBody, FuzzSerializers.ReceivedAt, serializer, out var normalized);
        FuzzPropertyException.Check((problem is null) != (normalized is null), "either a problem or an event, never both or neither");
        List<IngestEvent> events = normalized is null ? [] : [normalized];
        EventChecks.ProblemOrValidEvents(problem, events);
        if (normalized is not null)
        {
            EventChecks.SurvivesTheForward(events, serializer);
        }
    }
}
