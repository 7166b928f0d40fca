using System.Numerics;

namespace Ingest.LoadGen.Internal;

/// <summary>
/// A log-linear histogram of non-negative integer values (microseconds here), in the manner of
/// HdrHistogram: values below 128 have their own bucket; above, every power of two is split into 128
/// equal buckets, so a bucket is never wider than 1/128 of its lower edge. Percentiles are reported as
/// the middle of their bucket, so the relative error is at most 1/256 (0.4%); count, sum (hence mean),
/// standard deviation, minimum and maximum are exact. Values up to 2^40 µs (12 days) are tracked; larger ones land in the
/// last bucket but still count in the exact maximum.
/// </summary>
/// <remarks>Not thread-safe: each worker records into its own instance and the runner merges them with
/// <see cref="Add"/> after the run. Recording is a few shifts and adds, no allocation.</remarks>
internal sealed class LatencyHistogram
{
    /// <summary>log2 of the buckets per power of two: 128 buckets bound the error by 1/128 of the value.</summary>
    private const int SubBucketBits = 7;
    private const int SubBucketCount = 1 << SubBucketBits;

    /// <summary>2^40 µs is about 12.7 days: far beyond any run, so clamping never distorts a percentile.</summary>
    private const int MaxValueBits = 40;

    public const long HighestTrackableValue = (1L << MaxValueBits) - 1;

    private static readonly int BucketCount = IndexOf(HighestTrackableValue) + 1;

    private readonly long[] _counts = new long[BucketCount];
    private double _sumOfSquares;

    public long Count { get; private set; }

    public long Sum { get; private set; }

    public long Min { get; private set; } = long.MaxValue;

    public long Max { get; private set; }

    public double Mean => Count == 0 ? 0 : (double)Sum / Count;

    public void Record(long value)
    {
        if (value < 0)
        {
            value = 0;
        }

        _counts[IndexOf(Math.Min(value, HighestTrackableValue))]++;
        Count++;
        Sum += value;
        _sumOfSquares += (double)value * value;
        if (value < Min)
        {
            Min = value;
        }

        if (value > Max)
        {
            Max = value;
        }
    }

    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        var counts = other._counts;
        for (var i = 0; i < counts.Length; i++)
        {
            _counts[i] += counts[i];
        }

        Count += other.Count;
        Sum += other.Sum;
        _sumOfSquares += other._sumOfSquares;
        Min = Math.Min(Min, other.Min);
        Max = Math.Max(Max, other.Max);
    }

    public void Reset()
    {
        Array.Clear(_counts);
        Count = 0;
        Sum = 0;
        _sumOfSquares = 0;
        Min = long.MaxValue;
        Max = 0;
    }

    /// <summary>
    /// The value at <paramref name="percentile"/> (0–100) by nearest rank: the smallest recorded value such
    /// that at least that share of all values is at or below it, reported as the middle of its bucket and
    /// clamped to the exact minimum and maximum. 0 when nothing was recorded.
    /// </summary>
    public double ValueAtPercentile(double percentile)
    {
        if (Count == 0)
        {
            return 0;
        }

        if (percentile >= 100)
        {
            return Max;
        }

        var rank = (long)Math.Ceiling(Math.Max(percentile, 0) / 100 * Count);
        if (rank < 1)
        {
            rank = 1;
        }

        long seen = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            seen += _counts[i];
            if (seen >= rank)
            {
                var (low, width) = BucketOf(i);
                var middle = low + ((width - 1) / 2.0);
                return Math.Clamp(middle, Min, Max);
            }
        }

        return Max;
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
        for (var i = 0; i < _counts.Length; i++)
        {
            if (_counts[i] != 0)
            {
                var (low, width) = BucketOf(i);
                yield return (low, low + width - 1, _counts[i]);
            }
        }
    }

    internal static int IndexOf(long value)
    {
        if (value < SubBucketCount)
        {
            return (int)value;
        }

        // exponent: how far the value must be shifted right to keep its top 8 bits (128..255).
        var exponent = 63 - BitOperations.LeadingZeroCount((ulong)value) - SubBucketBits;
        return (exponent << SubBucketBits) + (int)(value >> exponent);
    }

    internal static (long Low, long Width) BucketOf(int index)
    {
        if (index < SubBucketCount)
        {
            return (index, 1);
        }

        var exponent = (index >> SubBucketBits) - 1;
        var mantissa = index - (exponent << SubBucketBits);
        return ((long)mantissa << exponent, 1L << exponent);
    }
}
