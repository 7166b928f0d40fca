namespace Ingest.Core.Sinks;

/// <summary>
/// Deliberate faults for tests and for proving the lab's checks: never set them in a measured run.
/// Bound from the <c>Faults</c> section of the back-end.
/// </summary>
public sealed class FaultOptions
{
    public const string SectionName = "Faults";

    /// <summary>Acknowledge every event but silently drop one in this many (0 = never). The lab's loss
    /// check must catch it. Defaults to 0.</summary>
    public int DropOneIn { get; set; }

    /// <summary>Wait this long before persisting each request, to make the back-end slow. Defaults to 0.</summary>
    public int DelayMilliseconds { get; set; }

    /// <summary>Wait this long after persisting, before answering: the caller may give up on an answer whose events
    /// were persisted (what retries with an Idempotency-Key must survive). Defaults to 0.</summary>
    public int ResponseDelayMilliseconds { get; set; }

    /// <summary>Every write fails, as a store that is down: the back-end must answer 503, never acknowledge. Defaults to false.</summary>
    public bool FailWrites { get; set; }
}
