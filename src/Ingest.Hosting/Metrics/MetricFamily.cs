using System.Collections.Concurrent;
using System.Globalization;
using System.Text;

namespace Ingest.Hosting.Metrics;

/// <summary>
/// Everything recorded for one Prometheus metric name: a series per label set. Recording a measurement first compares
/// its tags with the thread's previous label set of this family (the usual case: the same set again); otherwise it
/// renders them into a thread-local buffer and finds the series by that text without allocating, so only a label set
/// seen for the first time costs a string. The lookup text keeps tag names as the instrument wrote them (copied, not
/// checked character by character: this runs for every measurement of every request, and when it sanitized each name
/// each time the metrics aggregation was our own code's largest item in a profile of the front-end under load:
/// docs/notebook/classic.md#where-the-time-goes); the Prometheus label names are made once, when a series is created.
/// </summary>
internal sealed class MetricFamily
{
    private const int InitialLabelBuffer = 256;

    [ThreadStatic]
    private static char[]? t_labels;

    /// <summary>Each thread's last label set and series, per family (indexed by <see cref="_id"/>).</summary>
    [ThreadStatic]
    private static LastSeen?[]? t_lastSeen;

    private static int s_families;

    /// <summary>This family's slot in each thread's <see cref="t_lastSeen"/>.</summary>
    private readonly int _id = Interlocked.Increment(ref s_families) - 1;

    /// <summary>Series by their lookup text (tag names as written).</summary>
    private readonly ConcurrentDictionary<string, MetricSeries> _lookupText = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, MetricSeries>.AlternateLookup<ReadOnlySpan<char>> _lookup;

    /// <summary>Series by their Prometheus labels: two lookup texts that sanitize alike share one series.</summary>
    private readonly ConcurrentDictionary<string, MetricSeries> _series = new(StringComparer.Ordinal);

    public MetricFamily(string name, string help, MetricKind kind, double[] bounds)
    {
        Name = name;
        Help = help;
        Kind = kind;
        Bounds = bounds;
        _lookup = _lookupText.GetAlternateLookup<ReadOnlySpan<char>>();
    }

    public string Name { get; }

    public string Help { get; }

    public MetricKind Kind { get; }

    /// <summary>Upper bounds of the histogram buckets (+Inf implied); empty for other kinds.</summary>
    public double[] Bounds { get; }

    public string PrometheusType => Kind switch
    {
        MetricKind.CounterDelta or MetricKind.CounterTotal => "counter",
        MetricKind.Histogram => "histogram",
        _ => "gauge",
    };

    public ICollection<MetricSeries> Series => _series.Values;

    public void Record(double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var series = Find(tags);
        switch (Kind)
        {
            case MetricKind.CounterDelta:
            case MetricKind.GaugeDelta:
                series.Add(value);
                break;
            case MetricKind.Histogram:
                series.Observe(value, Bounds);
                break;
            default:
                series.Set(value);
                break;
        }
    }

    /// <summary>The series of <paramref name="tags"/>. A thread's measurements of one instrument mostly repeat the label set
    /// of its previous one (every request of a route answered alike), so that set is kept per thread and compared tag by
    /// tag first: cheaper than rendering and hashing it (the render and the lookup stood out in a profile of the
    /// front-end under load: docs/notebook/benchmarkdotnet.md#metrics-exporters).</summary>
    private MetricSeries Find(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var lastSeen = t_lastSeen;
        if (lastSeen is null || lastSeen.Length <= _id)
        {
            lastSeen = t_lastSeen = GrownTo(lastSeen, _id + 1);
        }

        var last = lastSeen[_id] ??= new LastSeen();
        if (last.Series is { } known && last.Matches(tags))
        {
            return known;
        }

        var series = Lookup(tags);
        last.Remember(tags, series);
        return series;
    }

    // Sized for every family made so far, so a thread grows its array once rather than once per family it meets.
    private static LastSeen?[] GrownTo(LastSeen?[]? current, int length)
    {
        var grown = new LastSeen?[Math.Max(length, Volatile.Read(ref s_families))];
        current?.CopyTo(grown, 0);
        return grown;
    }

    private MetricSeries Lookup(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var text = Render(tags, prometheusNames: false);
        if (_lookup.TryGetValue(text, out var series))
        {
            return series;
        }

        var lookupText = text.ToString(); // before the buffer is reused
        var labels = Render(tags, prometheusNames: true).ToString();
        var buckets = Kind == MetricKind.Histogram ? Bounds.Length + 1 : 0;
        series = _series.GetOrAdd(labels, static (key, buckets) => new MetricSeries(key, buckets), buckets);
        return _lookupText.GetOrAdd(lookupText, series);
    }

    /// <summary>The tags rendered into the thread's buffer (valid until the thread's next call).</summary>
    private static ReadOnlySpan<char> Render(ReadOnlySpan<KeyValuePair<string, object?>> tags, bool prometheusNames)
    {
        var buffer = t_labels ??= new char[InitialLabelBuffer];
        int length;
        while (!TryRender(tags, buffer, prometheusNames, out length))
        {
            buffer = t_labels = new char[buffer.Length * 2];
        }

        return buffer.AsSpan(0, length);
    }

    /// <summary>Renders tags as labels, sorted by name so one set always renders the same; with
    /// <paramref name="prometheusNames"/> the names are made valid Prometheus label names.</summary>
    private static bool TryRender(ReadOnlySpan<KeyValuePair<string, object?>> tags, Span<char> output, bool prometheusNames, out int written)
    {
        written = 0;
        Span<int> order = stackalloc int[Math.Min(tags.Length, 32)];
        var count = order.Length;
        for (var i = 0; i < count; i++)
        {
            var j = i;
            while (j > 0 && string.CompareOrdinal(tags[order[j - 1]].Key, tags[i].Key) > 0)
            {
                order[j] = order[j - 1];
                j--;
            }

            order[j] = i;
        }

        var position = 0;
        for (var i = 0; i < count; i++)
        {
            var tag = tags[order[i]];
            if (i > 0 && !TryAppend(output, ref position, ','))
            {
                return false;
            }

            if (!prometheusNames)
            {
                if (!tag.Key.TryCopyTo(output[position..]))
                {
                    return false;
                }

                position += tag.Key.Length;
            }
            else
            {
                for (var k = 0; k < tag.Key.Length; k++)
                {
                    var c = tag.Key[k];
                    if (!TryAppend(output, ref position, PrometheusNames.IsNameChar(c, k == 0) ? c : '_'))
                    {
                        return false;
                    }
                }
            }

            if (!TryAppend(output, ref position, '=') || !TryAppend(output, ref position, '"') ||
                !TryValue(tag.Value, output, ref position) || !TryAppend(output, ref position, '"'))
            {
                return false;
            }
        }

        written = position;
        return true;
    }

    private static bool TryValue(object? value, Span<char> output, ref int position)
    {
        switch (value)
        {
            case null:
                return true;
            case string text:
                return TryEscaped(text, output, ref position);
            case bool flag:
                return TryEscaped(flag ? "true" : "false", output, ref position);
            case ISpanFormattable formattable:
                if (!formattable.TryFormat(output[position..], out var n, default, CultureInfo.InvariantCulture))
                {
                    return false;
                }

                position += n;
                return true;
            default:
                // Rare (an enum or a custom type): its text, allocated.
                return TryEscaped(value.ToString() ?? "", output, ref position);
        }
    }

    private static bool TryEscaped(string text, Span<char> output, ref int position)
    {
        if (text.AsSpan().IndexOfAny('\\', '"', '\n') < 0)
        {
            // The usual case: nothing to escape, one copy.
            if (!text.TryCopyTo(output[position..]))
            {
                return false;
            }

            position += text.Length;
            return true;
        }

        foreach (var c in text)
        {
            var ok = c switch
            {
                '\\' => TryAppend(output, ref position, '\\') && TryAppend(output, ref position, '\\'),
                '"' => TryAppend(output, ref position, '\\') && TryAppend(output, ref position, '"'),
                '\n' => TryAppend(output, ref position, '\\') && TryAppend(output, ref position, 'n'),
                _ => TryAppend(output, ref position, c),
            };
            if (!ok)
            {
                return false;
            }
        }

        return true;
    }

    private static bool TryAppend(Span<char> output, ref int position, char c)
    {
        if (position >= output.Length)
        {
            return false;
        }

        output[position++] = c;
        return true;
    }

    /// <summary>Appends this family in the text exposition format 0.0.4.</summary>
    public void WriteTo(StringBuilder text)
    {
        var series = _series.Values.OrderBy(s => s.Labels, StringComparer.Ordinal).ToList();
        if (series.Count == 0)
        {
            return;
        }

        text.Append("# HELP ").Append(Name).Append(' ').Append(PrometheusNames.EscapeHelp(Help)).Append('\n');
        text.Append("# TYPE ").Append(Name).Append(' ').Append(PrometheusType).Append('\n');
        foreach (var s in series)
        {
            if (Kind != MetricKind.Histogram)
            {
                Sample(text, Name, s.Labels, null, s.Value);
                continue;
            }

            // Bucket counts are read before count and sum, and made cumulative here: a scrape racing a
            // measurement may be one off between them, never negative.
            long cumulative = 0;
            for (var i = 0; i < Bounds.Length; i++)
            {
                cumulative += s.Bucket(i);
                Sample(text, Name + "_bucket", s.Labels, PrometheusNames.Number(Bounds[i]), cumulative);
            }

            cumulative += s.Bucket(Bounds.Length);
            Sample(text, Name + "_bucket", s.Labels, "+Inf", cumulative);
            Sample(text, Name + "_sum", s.Labels, null, s.Value);
            Sample(text, Name + "_count", s.Labels, null, Math.Max(s.Count, cumulative));
        }
    }

    private static void Sample(StringBuilder text, string name, string labels, string? le, double value)
    {
        text.Append(name);
        if (labels.Length > 0 || le is not null)
        {
            text.Append('{').Append(labels);
            if (le is not null)
            {
                text.Append(labels.Length > 0 ? "," : "").Append("le=\"").Append(le).Append('"');
            }

            text.Append('}');
        }

        text.Append(' ').Append(PrometheusNames.Number(value)).Append('\n');
    }

    /// <summary>One thread's last label set of one family and its series. Only tags whose values compare as their text
    /// does (null, strings, booleans, integers) are kept: any other value makes the set never match, so it is rendered.</summary>
    private sealed class LastSeen
    {
        private KeyValuePair<string, object?>[] _tags = [];
        private int _count;

        public MetricSeries? Series { get; private set; }

        public bool Matches(ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            if (tags.Length != _count)
            {
                return false;
            }

            for (var i = 0; i < tags.Length; i++)
            {
                var known = _tags[i];
                if (!string.Equals(known.Key, tags[i].Key, StringComparison.Ordinal) || !SameText(known.Value, tags[i].Value))
                {
                    return false;
                }
            }

            return true;
        }

        public void Remember(ReadOnlySpan<KeyValuePair<string, object?>> tags, MetricSeries series)
        {
            foreach (var tag in tags)
            {
                if (tag.Value is not (null or string or bool or int or long or short or byte))
                {
                    Series = null;
                    return;
                }
            }

            if (_tags.Length < tags.Length)
            {
                _tags = new KeyValuePair<string, object?>[tags.Length];
            }

            tags.CopyTo(_tags);
            _count = tags.Length;
            Series = series;
        }

        private static bool SameText(object? known, object? value) => known switch
        {
            null => value is null,
            string text => value is string other && string.Equals(text, other, StringComparison.Ordinal),
            bool flag => value is bool other && flag == other,
            int number => value is int other && number == other,
            long number => value is long other && number == other,
            short number => value is short other && number == other,
            byte number => value is byte other && number == other,
            _ => false,
        };
    }
}
