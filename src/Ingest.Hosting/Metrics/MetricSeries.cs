namespace Ingest.Hosting.Metrics;

/// <summary>One label set of a metric family: its value, or its histogram buckets. Updated lock-free from
/// any thread that records a measurement; read by a scrape.</summary>
internal sealed class MetricSeries(string labels, int buckets)
{
    private readonly long[] _buckets = new long[buckets];
    private double _value;
    private long _count;

    /// <summary>The rendered label set (<c>method="GET",status="200"</c>), empty for none.</summary>
    public string Labels { get; } = labels;

    public double Value => Volatile.Read(ref _value);

    /// <summary>The value of label <paramref name="name"/> as rendered (escaped), or null when the set has none.</summary>
    public string? Label(string name)
    {
        var labels = Labels.AsSpan();
        var at = 0;
        while (at < labels.Length)
        {
            // name="value" pairs separated by commas; a value's quotes and backslashes are escaped.
            var equals = labels[at..].IndexOf('=');
            if (equals < 0)
            {
                return null;
            }

            var key = labels.Slice(at, equals);
            var start = at + equals + 2;
            var end = start;
            while (end < labels.Length && labels[end] != '"')
            {
                end += labels[end] == '\\' ? 2 : 1;
            }

            if (key.SequenceEqual(name))
            {
                return labels[start..Math.Min(end, labels.Length)].ToString();
            }

            at = end + 2;
        }

        return null;
    }

    public long Count => Interlocked.Read(ref _count);

    /// <summary>Non-cumulative count of bucket <paramref name="index"/> (the last one is +Inf).</summary>
    public long Bucket(int index) => Interlocked.Read(ref _buckets[index]);

    public void Add(double delta)
    {
        var current = Volatile.Read(ref _value);
        while (true)
        {
            var seen = Interlocked.CompareExchange(ref _value, current + delta, current);
            if (seen.Equals(current))
            {
                return;
            }

            current = seen;
        }
    }

    public void Set(double value) => Volatile.Write(ref _value, value);

    public void Observe(double value, double[] bounds)
    {
        var index = bounds.Length;
        for (var i = 0; i < bounds.Length; i++)
        {
            if (value <= bounds[i])
            {
                index = i;
                break;
            }
        }

        Interlocked.Increment(ref _buckets[index]);
        Interlocked.Increment(ref _count);
        Add(value);
    }
}
