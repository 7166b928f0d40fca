using HdrHistogram;

namespace Ingest.LoadGen.Internal;

/// <summary>
/// Latencies in microseconds: HdrHistogram's <see cref="LongHistogram"/> for the distribution, beside the exact
/// count, sum, sum of squares, minimum and maximum (HdrHistogram 2.5.0 reports those from its buckets). Two
/// significant digits: values below 256 have their own bucket, above every power of two is split into 128, so a
/// percentile reported as its bucket's middle is within 1/256 (0.4%) of the exact value.
/// </summary>
/// <remarks>Not thread-safe, on purpose: each worker records into its own instance from its one thread and the
/// runner merges them with <see cref="Add"/> after the threads have ended. HdrHistogram's thread-safe recording
/// (<c>LongConcurrentHistogram</c>, <c>Recorder</c>) costs 7–10 times as much per value (docs/dependencies.md).</remarks>
internal sealed class LatencyHistogram
{
    /// <summary>One day in µs: far beyond any run, so clamping never distorts a percentile. HdrHistogram 2.5.0 sizes
    /// a bucket's range with a 32-bit shift, so its range must stay below 2^39.</summary>
    public const long HighestTrackableValue = 86_400_000_000;

    private const int SignificantDigits = 2;

    private readonly LongHistogram _histogram = new(HighestTrackableValue, SignificantDigits);
    private double _sumOfSquares;

    public long Count { get; private set; }

    public long Sum { get; private set; }

    public long Min { get; private set; } = long.MaxValue;

    public long Max { get; private set; }

    public double Mean => Count == 0 ? 0 : (double)Sum / Count;

    public void Record(long value)
    {
        value = Math.Max(value, 0);
        _histogram.RecordValue(Math.Min(value, HighestTrackableValue));
        Count++;
        Sum += value;
        _sumOfSquares += (double)value * value;
        Min = Math.Min(Min, value);
        Max = Math.Max(Max, value);
    }

    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        _histogram.Add(other._histogram);
        Count += other.Count;
        Sum += other.Sum;
        _sumOfSquares += other._sumOfSquares;
        Min = Math.Min(Min, other.Min);
        Max = Math.Max(Max, other.Max);
    }

    /// <summary>
    /// The value at <paramref name="percentile"/> (0–100): HdrHistogram's, reported as the middle of its bucket and
    /// clamped to the exact minimum and maximum. 0 when nothing was recorded.
    /// </summary>
    public double ValueAtPercentile(double percentile)
    {
        if (Count == 0)
        {
            return 0;
        }

        return percentile >= 100
            ? Max
            : Math.Clamp(_histogram.MedianEquivalentValue(_histogram.GetValueAtPercentile(Math.Max(percentile, 0))), Min, Max);
    }

    /// <summary>Population standard deviation of the exact values (a sum of squares is kept).</summary>
    public double StandardDeviation()
    {
        if (Count < 2)
        {
            return 0;
        }

        var mean = Mean;
        return Math.Sqrt(Math.Max(0, (_sumOfSquares / Count) - (mean * mean)));
    }

    /// <summary>The non-empty buckets, lowest first: (lowest value, highest value, count).</summary>
    public IEnumerable<(long From, long To, long Count)> Buckets()
    {
        foreach (var bucket in _histogram.RecordedValues())
        {
            yield return (_histogram.LowestEquivalentValue(bucket.ValueIteratedTo), bucket.ValueIteratedTo, bucket.CountAtValueIteratedTo);
        }
    }
}
