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
}
