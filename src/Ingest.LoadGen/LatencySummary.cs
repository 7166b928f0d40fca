namespace Ingest.LoadGen;

/// <summary>
/// A latency distribution in milliseconds, from an HdrHistogram of microsecond resolution whose percentiles are
/// within 0.4% of the exact value (count, mean, min and max are exact).
/// </summary>
public sealed record LatencySummary
{
    public required long Count { get; init; }

    public required double MeanMs { get; init; }

    public required double StdDevMs { get; init; }

    public required double MinMs { get; init; }

    public required double P50Ms { get; init; }

    public required double P75Ms { get; init; }

    public required double P90Ms { get; init; }

    public required double P95Ms { get; init; }

    public required double P99Ms { get; init; }

    public required double P999Ms { get; init; }

    public required double MaxMs { get; init; }

    /// <summary>The histogram itself (non-empty buckets, lowest first), for plots and for merging runs.</summary>
    public required IReadOnlyList<HistogramBucket> Histogram { get; init; }
}
