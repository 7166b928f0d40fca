using Ingest.Core.Buffers;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;

namespace Ingest.Fuzz;

/// <summary>The properties every reader's answer must have, shared by the targets.</summary>
internal static class EventChecks
{
    /// <summary>A rejection is a client error with nothing half-read; an acceptance yields events the back-end's own
    /// check accepts.</summary>
    public static void ProblemOrValidEvents(IngestProblem? problem, List<IngestEvent> events)
    {
        if (problem is not null)
        {
            FuzzPropertyException.Check(problem.Status is >= 400 and < 500, $"a rejected body is a 4xx, not {problem.Status} ({problem.Detail})");
            FuzzPropertyException.Check(events.Count == 0, "a rejected body yields no events (all or nothing)");
            return;
        }

        FuzzPropertyException.Check(events.Count > 0, "an accepted body yields at least one event");
        foreach (var e in events)
        {
            FuzzPropertyException.Check(EventValidator.CheckNormalized(e, EventLocation.WholeBody) is null, "every accepted event passes the back-end's check");
            // received_at is optional on a forward (as for the Go back-end): absent, it stays default.
            FuzzPropertyException.Check(e.Timestamp.Kind == DateTimeKind.Utc && (e.ReceivedAt == default || e.ReceivedAt.Kind == DateTimeKind.Utc), "times are UTC");
        }
    }

    /// <summary>What the front-end forwards, the back-end reads back unchanged: the forward body written with
    /// <paramref name="serializer"/> is accepted by the back-end's reader and yields the same events.</summary>
    public static void SurvivesTheForward(List<IngestEvent> events, IIngestSerializer serializer)
    {
        using var body = new PooledBufferWriter();
        serializer.WriteEvents(body, events);
        var read = new List<IngestEvent>();
        var problem = FuzzSerializers.ForwardReader(serializer).Read(body.WrittenMemory, read);
        FuzzPropertyException.Check(problem is null, $"the back-end accepts what the front-end forwards ({problem?.Detail})");
        FuzzPropertyException.Check(read.Count == events.Count, "the forward keeps every event");
        for (var i = 0; i < events.Count; i++)
        {
            FuzzPropertyException.Check(Same(events[i], read[i]), $"event {i} survives the forward unchanged");
        }
    }

    public static bool Same(IngestEvent a, IngestEvent b) =>
        a.Type == b.Type && a.Source == b.Source && a.Timestamp == b.Timestamp && a.Timestamp.Kind == b.Timestamp.Kind
        && a.ReceivedAt == b.ReceivedAt && a.JobId == b.JobId && a.ContainerId == b.ContainerId && a.Status == b.Status
        && a.Name == b.Name && Nullable.Equals(a.Value, b.Value) && a.Unit == b.Unit && a.Level == b.Level && a.Message == b.Message;
}
