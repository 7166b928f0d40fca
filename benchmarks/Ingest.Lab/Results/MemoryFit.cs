namespace Ingest.Lab.Results;

/// <summary>
/// The smallest memory limit (each service in a group of its own, <c>--fit-memory</c>) at which a scenario still served
/// at least <see cref="Running.MemoryFitSearch.KeptThroughput"/> of its throughput without a memory limit, with no error and
/// the loss check passed; and every probe that led there.
/// </summary>
internal sealed record MemoryFit
{
    /// <summary>The median RPS without a memory limit (the CPU limit, if any, applied): what the probes must keep.</summary>
    public required double UnlimitedRps { get; init; }

    /// <summary>The smallest limit that kept it, in bytes; null when even the largest probe did not.</summary>
    public long? SmallestBytes { get; init; }

    public required IReadOnlyList<MemoryProbe> Probes { get; init; }
}

/// <summary>One run of the scenario under a memory limit: its median RPS, errors, whether it kept the throughput, and why
/// not; and each service's view of the limit (what its runtime reported, its group's peak and OOM kills).</summary>
internal sealed record MemoryProbe(long LimitBytes, double Rps, long Errors, bool Kept, string Outcome, IReadOnlyList<ContainerFigures> Containers)
{
    /// <summary>When the probe fell short on throughput alone: the median RPS of the run without a memory limit made right
    /// after it, which the probe was then held against.</summary>
    public double? UnlimitedAgainRps { get; init; }
}
