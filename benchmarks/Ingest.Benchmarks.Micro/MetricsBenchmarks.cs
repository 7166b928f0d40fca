using System.Buffers;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;
using BenchmarkDotNet.Attributes;
using Ingest.Core.Diagnostics;
using Ingest.Hosting.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Prometheus;

namespace Ingest.Benchmarks.Micro;

/// <summary>Who turns the measurements into Prometheus text.</summary>
public enum MetricsExporter
{
    /// <summary>No listener: what an instrument costs when nobody listens.</summary>
    None,

    /// <summary>The services' own exporter (src/Ingest.Hosting/Metrics), a MeterListener as the services attach it.</summary>
    Ingest,

    /// <summary>prometheus-net's MeterAdapter on the same meters, into a registry of its own.</summary>
    PrometheusNetAdapter,

    /// <summary>prometheus-net's own histogram and counter, no Meter at all: what an app written against it pays.</summary>
    PrometheusNetNative,
}

/// <summary>
/// One measurement of the front-end's hottest instruments, per exporter: ASP.NET Core's
/// <c>http.server.request.duration</c> (a histogram with its five tags and its advised buckets, once per request) and
/// the <c>ingest.forwards</c> counter (once per forward, by outcome). The instruments are recreated here with the same
/// names, units, buckets and tags, on meters from an <see cref="IMeterFactory"/> as the host's are; 50 series of the
/// histogram exist before measuring, so each lookup searches a realistic table. Nothing else listens during a run.
/// </summary>
[BenchmarkCategory(Categories.Metrics)]
public class MetricsRecordBenchmarks : MetricsBenchmarksBase
{
    [ParamsAllValues]
    public override MetricsExporter Exporter { get; set; }

    /// <summary><c>POST /ingest/event</c> answered 200 in 12 ms (the third of fifteen buckets).</summary>
    [Benchmark]
    public void RecordRequestDuration() => Fixture.RecordRequestDuration();

    /// <summary>One forward counted, outcome ok.</summary>
    [Benchmark]
    public void AddForward() => Fixture.AddForward();
}

/// <summary>
/// One scrape of the same 50 series of the request-duration histogram and the forwards counter (with whatever else
/// the listener takes from the meters it watches: both listen to the same ones, the runtime's included), rendered
/// to UTF-8 bytes as each one's endpoint answers: ours a string then its bytes, prometheus-net into a stream.
/// </summary>
[BenchmarkCategory(Categories.Metrics)]
public class MetricsScrapeBenchmarks : MetricsBenchmarksBase
{
    [Params(MetricsExporter.Ingest, MetricsExporter.PrometheusNetAdapter)]
    public override MetricsExporter Exporter { get; set; }

    /// <summary>The bytes a scrape answers with; their count is returned.</summary>
    [Benchmark]
    public Task<long> Scrape() => Fixture.ScrapeAsync();
}

/// <summary>The case's exporter attached, with the instruments and their series, from setup to cleanup.</summary>
public abstract class MetricsBenchmarksBase
{
    public abstract MetricsExporter Exporter { get; set; }

    private protected MetricsFixture Fixture { get; private set; } = null!;

    [GlobalSetup]
    public void Setup() => Fixture = new MetricsFixture(Exporter);

    [GlobalCleanup]
    public void Cleanup() => Fixture.Dispose();
}

/// <summary>The instruments, the 50 series and one exporter listening to them.</summary>
internal sealed class MetricsFixture : IDisposable
{
    /// <summary>ASP.NET Core's advice for <c>http.server.request.duration</c>.</summary>
    private static readonly double[] RequestDurationBounds = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

    private static readonly string[] Routes = ["/ingest/event", "/ingest/data", "/ingest/stats", "/plaintext", "/json"];
    private static readonly int[] Statuses = [200, 400, 404, 413, 503];
    private static readonly string[] Methods = ["POST", "GET"];

    /// <summary>prometheus-net's label names, in the order its native histogram takes their values.</summary>
    private static readonly string[] NativeLabels = ["http_request_method", "http_response_status_code", "http_route", "network_protocol_version", "url_scheme"];

    private const double Seconds = 0.012;

    private static readonly object Status200 = 200;

    private readonly MetricsExporter _exporter;
    private readonly ServiceProvider _services;
    private readonly Histogram<double> _requestDuration;
    private readonly Counter<long> _forwards;
    private readonly MetricsCollector? _collector;
    private readonly IDisposable? _adapter;
    private readonly CollectorRegistry? _registry;
    private readonly Prometheus.Histogram? _nativeDuration;
    private readonly Prometheus.Counter? _nativeForwards;
    private readonly MemoryStream _scrape = new(64 * 1024);
    private readonly ArrayBufferWriter<byte> _scrapeBuffer = new(256 * 1024);

    /// <summary>The tags ASP.NET Core's hosting adds to a routed request that succeeded (the status code boxed once,
    /// as it caches them).</summary>
    private readonly TagList _requestTags = Tags("POST", "/ingest/event", Status200);

    public MetricsFixture(MetricsExporter exporter)
    {
        _exporter = exporter;
        _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var meterFactory = _services.GetRequiredService<IMeterFactory>();
        switch (exporter)
        {
            case MetricsExporter.Ingest:
                _collector = new MetricsCollector(meterFactory);
                break;
            case MetricsExporter.PrometheusNetAdapter:
                _registry = Metrics.NewCustomRegistry();
                _adapter = MeterAdapter.StartListening(new MeterAdapterOptions
                {
                    Registry = _registry,
                    // Its default factory is the global registry's, which would win over Registry.
                    MetricFactory = Metrics.WithCustomRegistry(_registry),
                    // The meters MetricsCollector takes, by the same rule.
                    InstrumentFilterPredicate = i => Array.IndexOf(MetricsCollector.MeterNames, i.Meter.Name) >= 0 &&
                        (i.Meter.Scope is null || ReferenceEquals(i.Meter.Scope, meterFactory)),
                    // The instrument's advised buckets, as ours uses.
                    ResolveHistogramBuckets = i => i is Histogram<double> { Advice.HistogramBucketBoundaries: { } b } ? [.. b] : MeterAdapterOptions.DefaultHistogramBuckets,
                });
                break;
            case MetricsExporter.PrometheusNetNative:
                _registry = Metrics.NewCustomRegistry();
                var factory = Metrics.WithCustomRegistry(_registry);
                _nativeDuration = factory.CreateHistogram("http_server_request_duration_seconds", "Duration of HTTP server requests.", NativeLabels,
                    new HistogramConfiguration { Buckets = RequestDurationBounds });
                _nativeForwards = factory.CreateCounter("ingest_forwards_total", "Back-end calls of the front-end, by outcome.", ["outcome"]);
                break;
        }

        // Created after the listener, as the host's instruments are created after MetricsCollector attaches.
        var hosting = meterFactory.Create("Microsoft.AspNetCore.Hosting");
        _requestDuration = hosting.CreateHistogram("http.server.request.duration", "s", "Duration of HTTP server requests.", tags: null,
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = RequestDurationBounds });
        _forwards = meterFactory.Create(IngestMetrics.MeterName).CreateCounter<long>("ingest.forwards", "{forward}", "Back-end calls of the front-end, by outcome.");

        foreach (var method in Methods)
        {
            foreach (var route in Routes)
            {
                foreach (var status in Statuses)
                {
                    if (_nativeDuration is not null)
                    {
                        _nativeDuration.WithLabels(method, status.ToString(CultureInfo.InvariantCulture), route, "1.1", "http").Observe(0.001);
                    }
                    else
                    {
                        var tags = Tags(method, route, status == 200 ? Status200 : status);
                        _requestDuration.Record(0.001, in tags);
                    }
                }
            }
        }

        AddForward();
        RecordRequestDuration();
        CheckTheSeries();
    }

    public void RecordRequestDuration()
    {
        if (_nativeDuration is not null)
        {
            // params string[]: the array is allocated per call, as in an app that writes it this way.
            _nativeDuration.WithLabels("POST", "200", "/ingest/event", "1.1", "http").Observe(Seconds);
            return;
        }

        _requestDuration.Record(Seconds, in _requestTags);
    }

    public void AddForward()
    {
        if (_nativeForwards is not null)
        {
            _nativeForwards.WithLabels("ok").Inc();
            return;
        }

        _forwards.Add(1, new KeyValuePair<string, object?>("outcome", "ok"));
    }

    public async Task<long> ScrapeAsync()
    {
        if (_collector is not null)
        {
            // As MetricsEndpoint answers: UTF-8 into the response's buffer (here one reused across scrapes).
            _scrapeBuffer.ResetWrittenCount();
            return _collector.WriteTo(_scrapeBuffer);
        }

        if (_registry is null)
        {
            return 0;
        }

        _scrape.SetLength(0);
        await _registry.CollectAndExportAsTextAsync(_scrape);
        return _scrape.Length;
    }

    public void Dispose()
    {
        _collector?.Dispose();
        _adapter?.Dispose();
        _services.Dispose();
        _scrape.Dispose();
    }

    private static TagList Tags(string method, string route, object status) => new()
    {
        { "http.request.method", method },
        { "url.scheme", "http" },
        { "network.protocol.version", "1.1" },
        { "http.route", route },
        { "http.response.status_code", status },
    };

    /// <summary>Proves the exporter holds the 50 series and the counter (a filter or registry set up wrong would
    /// measure nothing and look cheap).</summary>
    private void CheckTheSeries()
    {
        if (_exporter == MetricsExporter.None)
        {
            return;
        }

        ScrapeAsync().GetAwaiter().GetResult();
        var text = _collector is not null ? _collector.Scrape() : Encoding.UTF8.GetString(_scrape.GetBuffer(), 0, (int)_scrape.Length);
        var series = text.Split('\n').Count(l => l.Contains("request_duration", StringComparison.Ordinal) && l.Contains("_count{", StringComparison.Ordinal));
        if (series != Methods.Length * Routes.Length * Statuses.Length || !text.Contains("outcome=\"ok\"", StringComparison.Ordinal))
        {
            throw new InvalidOperationException($"{_exporter}: {series} request-duration series (50 expected), or no forwards counted:\n{text}");
        }
    }
}
