using System.Buffers;
using System.Diagnostics.Metrics;
using System.Text;
using Ingest.Core.Diagnostics;

namespace Ingest.Hosting.Metrics;

/// <summary>
/// Listens to the meters Ingest reports (its own, ASP.NET Core's hosting and Kestrel meters, HttpClient's and
/// the runtime's) and aggregates whatever instruments they publish into Prometheus metric families; no
/// instrument is named here, so a new one shows up by itself. Meters created by another host's
/// <see cref="IMeterFactory"/> (a second service in the same test process) are ignored.
/// </summary>
internal sealed class MetricsCollector : IDisposable
{
    /// <summary>The meters exported. System.Runtime (GC, heap, allocations, thread pool, CPU, working set) exists
    /// since .NET 9; Kestrel's gives connection counts; Hosting's gives request rate and duration per route and
    /// status; System.Net.Http's gives the front-end's outgoing calls.</summary>
    public static readonly string[] MeterNames =
    [
        IngestMetrics.MeterName,
        "Microsoft.AspNetCore.Hosting",
        "Microsoft.AspNetCore.Server.Kestrel",
        "System.Runtime",
        "System.Net.Http",
    ];

    /// <summary>Current values the runtime (.NET 9 and 10.0) publishes as monotonic ObservableCounters by mistake
    /// (https://github.com/dotnet/runtime/issues/112077, https://github.com/dotnet/runtime/issues/126167): exported as
    /// the gauges they are, so <c>rate()</c> is never applied to a thread count.</summary>
    private static readonly string[] GaugesPublishedAsCounters = ["dotnet.thread_pool.thread.count", "dotnet.thread_pool.queue.length"];

    /// <summary>The buckets ASP.NET Core advises for its durations, used for a seconds histogram with no advice.</summary>
    private static readonly double[] DefaultSecondsBounds = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

    /// <summary>OpenTelemetry's default explicit buckets, for any other histogram with no advice.</summary>
    private static readonly double[] DefaultBounds = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];

    private readonly MeterListener _listener = new();
    private readonly IMeterFactory _meterFactory;
    private readonly Dictionary<string, MetricFamily> _families = new(StringComparer.Ordinal);
    private readonly Lock _lock = new();
    private readonly Lock _renderLock = new();
    private readonly StringBuilder _text = new(16 * 1024);
    private readonly Encoder _encoder = Encoding.UTF8.GetEncoder();

    public MetricsCollector(IMeterFactory meterFactory)
    {
        _meterFactory = meterFactory;
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (Accepts(instrument.Meter) && Family(instrument) is { } family)
            {
                listener.EnableMeasurementEvents(instrument, family);
            }
        };
        _listener.SetMeasurementEventCallback<long>(static (_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<int>(static (_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<double>(static (_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<float>(static (_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<short>(static (_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<byte>(static (_, value, tags, state) => ((MetricFamily)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<decimal>(static (_, value, tags, state) => ((MetricFamily)state!).Record((double)value, tags));
        _listener.Start();
    }

    /// <summary>Observes the observable instruments, then renders every family in the text exposition format 0.0.4.</summary>
    public string Scrape()
    {
        lock (_renderLock)
        {
            return Render().ToString();
        }
    }

    /// <summary>
    /// <see cref="Scrape"/> written as UTF-8 into <paramref name="output"/>, returning the byte count. The text is
    /// built in one builder kept across scrapes and encoded chunk by chunk, so a scrape allocates neither the
    /// text as a string nor its bytes: with a few hundred series both are large-object-heap sized, and a scrape
    /// every second would otherwise cost a gen2 collection every few scrapes.
    /// </summary>
    public long WriteTo(IBufferWriter<byte> output)
    {
        lock (_renderLock)
        {
            // One encoder across the chunks: a surrogate pair split between two chunks still encodes as one character.
            _encoder.Reset();
            long written = 0;
            foreach (var chunk in Render().GetChunks())
            {
                _encoder.Convert(chunk.Span, output, flush: false, out var bytes, out _);
                written += bytes;
            }

            _encoder.Convert([], output, flush: true, out var last, out _);
            return written + last;
        }
    }

    /// <summary>The series of the family named <paramref name="name"/> (its Prometheus name), empty when nothing was recorded.
    /// Counters and histograms only: gauges that are observed need a scrape first.</summary>
    public ICollection<MetricSeries> SeriesOf(string name)
    {
        lock (_lock)
        {
            return _families.TryGetValue(name, out var family) ? family.Series : [];
        }
    }

    public void Dispose() => _listener.Dispose();

    // Under _renderLock: the builder is shared by every scrape.
    private StringBuilder Render()
    {
        _listener.RecordObservableInstruments();
        MetricFamily[] families;
        lock (_lock)
        {
            families = [.. _families.Values];
        }

        Array.Sort(families, static (a, b) => string.CompareOrdinal(a.Name, b.Name));
        _text.Clear();
        foreach (var family in families)
        {
            family.WriteTo(_text);
        }

        return _text;
    }

    private bool Accepts(Meter meter) =>
        Array.IndexOf(MeterNames, meter.Name) >= 0 && (meter.Scope is null || ReferenceEquals(meter.Scope, _meterFactory));

    private MetricFamily? Family(Instrument instrument)
    {
        if (KindOf(instrument) is not { } kind)
        {
            return null;
        }

        if (kind == MetricKind.CounterTotal && Array.IndexOf(GaugesPublishedAsCounters, instrument.Name) >= 0)
        {
            kind = MetricKind.GaugeLast;
        }

        var name = PrometheusNames.For(instrument, kind);
        lock (_lock)
        {
            // The same name twice (a meter re-created with the same instruments) shares one family.
            if (!_families.TryGetValue(name, out var family))
            {
                var bounds = kind == MetricKind.Histogram ? BoundsOf(instrument) : [];
                family = new MetricFamily(name, instrument.Description ?? instrument.Name, kind, bounds);
                _families.Add(name, family);
            }

            return family.Kind == kind ? family : null;
        }
    }

    private static MetricKind? KindOf(Instrument instrument) =>
        KindOf<long>(instrument) ?? KindOf<int>(instrument) ?? KindOf<double>(instrument) ?? KindOf<float>(instrument) ??
        KindOf<short>(instrument) ?? KindOf<byte>(instrument) ?? KindOf<decimal>(instrument);

    private static MetricKind? KindOf<T>(Instrument instrument)
        where T : struct => instrument switch
        {
            Counter<T> => MetricKind.CounterDelta,
            ObservableCounter<T> => MetricKind.CounterTotal,
            UpDownCounter<T> => MetricKind.GaugeDelta,
            Histogram<T> => MetricKind.Histogram,
            Gauge<T> or ObservableGauge<T> or ObservableUpDownCounter<T> => MetricKind.GaugeLast,
            _ => null,
        };

    private static double[] BoundsOf(Instrument instrument) => instrument switch
    {
        Histogram<double> { Advice.HistogramBucketBoundaries: { } b } => [.. b],
        Histogram<float> { Advice.HistogramBucketBoundaries: { } b } => [.. b.Select(static v => (double)v)],
        Histogram<long> { Advice.HistogramBucketBoundaries: { } b } => [.. b.Select(static v => (double)v)],
        Histogram<int> { Advice.HistogramBucketBoundaries: { } b } => [.. b.Select(static v => (double)v)],
        _ when instrument.Unit == "s" => DefaultSecondsBounds,
        _ => DefaultBounds,
    };
}
