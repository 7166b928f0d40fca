namespace Ingest.Core.Sinks;

/// <summary>Which sink persists each event type. Bound from the <c>Sinks</c> section.</summary>
public sealed class SinkOptions
{
    public const string SectionName = "Sinks";

    /// <summary>The sink for every type without one of its own. Defaults to <see cref="SinkKind.Memory"/>.</summary>
    public SinkKind Default { get; set; } = SinkKind.Memory;

    /// <summary>The sink for job events. Defaults to null: <see cref="Default"/>.</summary>
    public SinkKind? Job { get; set; }

    /// <summary>The sink for metric events. Defaults to null: <see cref="Default"/>.</summary>
    public SinkKind? Metric { get; set; }

    /// <summary>The sink for log events. Defaults to null: <see cref="Default"/>.</summary>
    public SinkKind? Log { get; set; }

    /// <summary>How many recent events the memory sink keeps. Defaults to 1,000.</summary>
    public int RecentCapacity { get; set; } = 1_000;

    /// <summary>How many of the last events acknowledged (by any sink) the status page lists. Defaults to 20; 0 keeps none.</summary>
    public int StatusPageEvents { get; set; } = 20;
}
