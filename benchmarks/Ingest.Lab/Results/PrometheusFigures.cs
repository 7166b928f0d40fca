namespace Ingest.Lab.Results;

/// <summary>
/// One service as Prometheus saw it over a scenario's measured repeats (<c>--prometheus</c>), from its own /metrics:
/// the server-side view beside the load generator's client-side one. Null where Prometheus had no data (a Go service
/// has no /metrics; the raw API style has no route label).
/// </summary>
internal sealed record PrometheusFigures
{
    /// <summary>Requests per second served on routed endpoints (the scrapes themselves are not routed).</summary>
    public double? RequestsPerSecond { get; init; }

    /// <summary>The 99th percentile of the request duration, in ms, estimated by <c>histogram_quantile</c> from the
    /// histogram's buckets (so no finer than the bucket bounds around it).</summary>
    public double? P99Ms { get; init; }

    /// <summary>Cores busy: the rate of the process's CPU time.</summary>
    public double? CpuCores { get; init; }

    /// <summary>Largest working set scraped, in bytes.</summary>
    public double? PeakWorkingSetBytes { get; init; }

    /// <summary>Garbage collections of any generation during the window.</summary>
    public double? GcCollections { get; init; }

    /// <summary>Successful scrapes of the service in the window (<c>up</c> = 1): a figure from a handful is rough.</summary>
    public double? Scrapes { get; init; }

    /// <summary>The PromQL behind each figure, evaluated at the end of the window.</summary>
    public IReadOnlyDictionary<string, string> Queries { get; init; } = new Dictionary<string, string>();
}
