namespace Ingest.Core.Contract;

/// <summary>Event counts per <see cref="Events.EventType"/>.</summary>
public sealed class TypeCounts
{
    public long Job { get; set; }

    public long Metric { get; set; }

    public long Log { get; set; }
}
