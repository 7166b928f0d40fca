using Ingest.LoadGen.Internal;

namespace Ingest.LoadGen.Tests;

public sealed class LatencyHistogramTests
{
    private static readonly double[] Percentiles = [0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100];

    [Fact]
    public void PercentilesOfAUniformDistributionAreWithinOnePercent()
    {
        var values = new long[1_000_000];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = i + 1; // 1 µs .. 1 s
        }

        AssertMatchesExact(values);
    }

    [Fact]
    public void PercentilesOfALogNormalDistributionFromMicrosecondsToMinutesAreWithinOnePercent()
    {
        var random = new Random(20261122);
        var values = new long[200_000];
        for (var i = 0; i < values.Length; i++)
        {
            // Box-Muller: median e^9 µs ≈ 8 ms, spread wide enough to reach microseconds and minutes.
            var normal = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
            values[i] = Math.Max(1, (long)Math.Exp(9 + (3 * normal)));
        }

        Assert.Contains(values, v => v < 100);
        Assert.Contains(values, v => v > 60_000_000); // over a minute
        AssertMatchesExact(values);
    }

    [Fact]
    public void ABimodalDistributionKeepsBothModes()
    {
        // 98% fast (around 1 ms), 2% stalled (around 1 s): p50 must be fast, p99 must be the stall.
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 9_800; i++)
        {
            histogram.Record(900 + (i % 200));
        }

        for (var i = 0; i < 200; i++)
        {
            histogram.Record(1_000_000 + (i * 100));
        }

        Assert.InRange(histogram.ValueAtPercentile(50), 990, 1_010);
        Assert.InRange(histogram.ValueAtPercentile(99), 1_000_000 * 0.99, 1_020_000 * 1.01);
    }

    [Fact]
    public void CountSumMinMaxAndMeanAreExact()
    {
        var histogram = new LatencyHistogram();
        long[] values = [5, 17, 300, 4_096, 123_456_789];
        foreach (var value in values)
        {
            histogram.Record(value);
        }

        Assert.Equal(values.Length, histogram.Count);
        Assert.Equal(values.Sum(), histogram.Sum);
        Assert.Equal(5, histogram.Min);
        Assert.Equal(123_456_789, histogram.Max);
        Assert.Equal(values.Average(), histogram.Mean, 6);
        Assert.Equal(123_456_789, histogram.ValueAtPercentile(100));
    }

    [Fact]
    public void AConstantDistributionReportsTheConstantAtEveryPercentile()
    {
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 10_000; i++)
        {
            histogram.Record(10_000);
        }

        foreach (var percentile in Percentiles)
        {
            Assert.Equal(10_000, histogram.ValueAtPercentile(percentile));
        }

        Assert.Equal(0, histogram.StandardDeviation());
    }

    [Fact]
    public void MergedHistogramsEqualOneHistogramOfAllValues()
    {
        var random = new Random(7);
        var all = new LatencyHistogram();
        var a = new LatencyHistogram();
        var b = new LatencyHistogram();
        for (var i = 0; i < 50_000; i++)
        {
            var value = random.NextInt64(1, 5_000_000);
            all.Record(value);
            (i % 2 == 0 ? a : b).Record(value);
        }

        a.Add(b);
        Assert.Equal(all.Count, a.Count);
        Assert.Equal(all.Sum, a.Sum);
        Assert.Equal(all.Min, a.Min);
        Assert.Equal(all.Max, a.Max);
        foreach (var percentile in Percentiles)
        {
            Assert.Equal(all.ValueAtPercentile(percentile), a.ValueAtPercentile(percentile));
        }
    }

    [Fact]
    public void HistogramsRecordedOnSeveralThreadsMergeIntoOneOfAllValues()
    {
        // As the load generator records: one histogram per worker thread, merged once the threads have ended.
        const int Threads = 4;
        const int PerThread = 100_000;
        var perThread = new LatencyHistogram[Threads];
        var workers = new Thread[Threads];
        for (var t = 0; t < Threads; t++)
        {
            var index = t;
            perThread[index] = new LatencyHistogram();
            workers[index] = new Thread(() =>
            {
                for (var i = 0; i < PerThread; i++)
                {
                    perThread[index].Record(Value(index, i));
                }
            });
            workers[index].Start();
        }

        var all = new LatencyHistogram();
        for (var t = 0; t < Threads; t++)
        {
            workers[t].Join();
            for (var i = 0; i < PerThread; i++)
            {
                all.Record(Value(t, i));
            }
        }

        var merged = new LatencyHistogram();
        foreach (var histogram in perThread)
        {
            merged.Add(histogram);
        }

        Assert.Equal(Threads * PerThread, merged.Count);
        Assert.Equal(all.Buckets(), merged.Buckets());
        Assert.Equal((all.Sum, all.Min, all.Max), (merged.Sum, merged.Min, merged.Max));
        // Sums of squares added in another order: equal to within rounding.
        Assert.Equal(all.StandardDeviation(), merged.StandardDeviation(), tolerance: 0.001);

        static long Value(int thread, int i) => ((long)i * 7919 % 3_000_000) + thread;
    }

    [Fact]
    public void EveryBucketHoldsItsValueAndIsNarrowerThanOneHundredTwentyEighthOfIt()
    {
        for (long value = 0; value < LatencyHistogram.HighestTrackableValue; value = (value * 3 / 2) + 1)
        {
            var histogram = new LatencyHistogram();
            histogram.Record(value);

            var (low, high, count) = Assert.Single(histogram.Buckets());
            Assert.Equal(1, count);
            Assert.InRange(value, low, high);
            var width = high - low + 1;
            Assert.True(width == 1 || width * 128 <= low, $"bucket of {value} is [{low}, {high}], too wide");
        }
    }

    [Fact]
    public void AValueBeyondTheTrackableRangeIsCountedInTheLastBucketAndKeepsItsExactMaximum()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(1_000);
        histogram.Record(LatencyHistogram.HighestTrackableValue * 4);

        Assert.Equal(2, histogram.Count);
        Assert.Equal(LatencyHistogram.HighestTrackableValue * 4, histogram.Max);
        Assert.Equal(LatencyHistogram.HighestTrackableValue * 4, histogram.ValueAtPercentile(100));
        Assert.InRange(histogram.Buckets().Last().To, LatencyHistogram.HighestTrackableValue, LatencyHistogram.HighestTrackableValue * 1.01);
        Assert.InRange(histogram.ValueAtPercentile(50), 1_000 * 0.99, 1_000 * 1.01);
    }

    [Fact]
    public void AnEmptyHistogramReportsZero()
    {
        var histogram = new LatencyHistogram();
        Assert.Equal(0, histogram.ValueAtPercentile(50));
        Assert.Equal(0, histogram.Mean);
    }

    private static void AssertMatchesExact(long[] values)
    {
        var histogram = new LatencyHistogram();
        foreach (var value in values)
        {
            histogram.Record(value);
        }

        var sorted = (long[])values.Clone();
        Array.Sort(sorted);
        foreach (var percentile in Percentiles)
        {
            var rank = Math.Max(1, (long)Math.Ceiling(percentile / 100 * sorted.Length));
            var exact = sorted[rank - 1];
            var reported = histogram.ValueAtPercentile(percentile);
            Assert.True(Math.Abs(reported - exact) <= Math.Max(0.5, exact * 0.01),
                $"p{percentile}: reported {reported}, exact {exact}");
        }
    }
}
