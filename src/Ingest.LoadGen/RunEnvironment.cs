namespace Ingest.LoadGen;

/// <summary>The machine and runtime the load generator ran on.</summary>
public sealed record RunEnvironment
{
    /// <summary>Version of Ingest.LoadGen.</summary>
    public required string ToolVersion { get; init; }

    public required string Runtime { get; init; }

    public required string OperatingSystem { get; init; }

    public required int ProcessorCount { get; init; }

    /// <summary>"Server" or "Workstation", and whether concurrent.</summary>
    public required string GarbageCollector { get; init; }
}
