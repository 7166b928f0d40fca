namespace Ingest.Lab.Running;

/// <summary>Latency of a phase in milliseconds, and its percentile curve (percentile, milliseconds) for plots.</summary>
internal sealed record LatencyFigures(double Mean, double P50, double P75, double P90, double P99, double P999, double Max)
{
    public IReadOnlyList<double[]> Curve { get; init; } = [];
}
