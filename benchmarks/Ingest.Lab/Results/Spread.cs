namespace Ingest.Lab.Results;

/// <summary>The median of repeated measurements with their min and max: how every figure in a report is given.</summary>
internal sealed record Spread(double Median, double Min, double Max, int Count)
{
    public static Spread Of(IReadOnlyCollection<double> values)
    {
        if (values.Count == 0)
        {
            return new Spread(double.NaN, double.NaN, double.NaN, 0);
        }

        var sorted = values.Order().ToArray();
        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[^1], sorted.Length);
    }

    /// <summary>(max - min) / median: the run-to-run noise of this figure.</summary>
    public double RelativeRange => Median == 0 || double.IsNaN(Median) ? double.NaN : (Max - Min) / Median;
}
