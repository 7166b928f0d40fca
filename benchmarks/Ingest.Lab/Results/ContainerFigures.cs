namespace Ingest.Lab.Results;

/// <summary>One limited service (<c>--limit</c>): the limits it ran under, what its runtime said it saw (the .NET
/// services' start-up line: <c>cpus=</c> is Environment.ProcessorCount, <c>memory=</c> the GC's
/// TotalAvailableMemoryBytes), and what the kernel counted for its group.</summary>
internal sealed record ContainerFigures
{
    public required string Service { get; init; }

    /// <summary>"memory=128M,cpus=1".</summary>
    public required string Limits { get; init; }

    /// <summary>The processor count the runtime reported; null for a program that does not say (Go).</summary>
    public int? RuntimeCpus { get; init; }

    /// <summary>The memory the GC said it may use; null for a program that does not say (Go).</summary>
    public long? RuntimeMemoryBytes { get; init; }

    /// <summary>The memory group's peak charge (resident memory and page cache charged to it).</summary>
    public long? GroupPeakBytes { get; init; }

    /// <summary>Processes of the group the kernel's OOM killer ended.</summary>
    public long OomKills { get; init; }
}
