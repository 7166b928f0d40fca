using System.Globalization;
using System.Text.RegularExpressions;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Sinks;
using Ingest.Hosting.Metrics;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Pages;

/// <summary>
/// Builds the <see cref="StatusPage"/> every engine renders, from what the service counts already: the start-up
/// line's facts, the Prometheus collector's series (ASP.NET Core's request duration, the <c>Ingest</c> meter's
/// forwards, accepted and persisted events), the back-end's <see cref="SinkStatistics"/> and its
/// <see cref="RecentEvents"/> ring. Nothing is counted twice for the page.
/// </summary>
internal sealed partial class StatusPageSource(IEnumerable<StartupFact> facts, IServiceProvider services, IngestHostExtensions.HostRole host)
{
    public const string MvcEngine = "MVC Razor views";
    public const string SlicesEngine = "RazorSlices";

    private const string RequestDuration = "http_server_request_duration_seconds";
    private const string StatusLabel = "http_response_status_code";
    private const string AcceptedEvents = "ingest_events_accepted_total";
    private const string Forwards = "ingest_forwards_total";
    private const string SinkEvents = "ingest_sink_events_total";

    private static readonly EventType[] Types = [EventType.Job, EventType.Metric, EventType.Log];

    // Resolved on the first page, not at start-up: the collector starts listening then if /metrics is off.
    private readonly Lazy<PageFact[]> _configuration = new(() => Configuration(facts, services));
    private readonly Lazy<MetricsCollector?> _collector = new(services.GetService<MetricsCollector>);
    private readonly SinkRouter? _sinks = host.Role == ServiceRole.BackEnd ? services.GetService<SinkRouter>() : null;
    private readonly SinkStatistics? _statistics = host.Role == ServiceRole.BackEnd ? services.GetService<SinkStatistics>() : null;

    public ServiceRole Role => host.Role;

    public StatusPage Build(string engine) => new()
    {
        Title = host.Role == ServiceRole.FrontEnd ? "Ingest front-end" : "Ingest back-end",
        Engine = engine,
        Configuration = _configuration.Value,
        Counters = Counters(),
        RecentEvents = _sinks is null ? null : Recent(_sinks.Recent),
    };

    /// <summary>Userinfo in a URL (<c>http://user:secret@host</c>) is replaced: the page is not where credentials show.</summary>
    internal static string Redact(string value) => UserInfo().Replace(value, "://***@");

    private static PageFact[] Configuration(IEnumerable<StartupFact> facts, IServiceProvider services)
    {
        var result = new List<PageFact>();
        foreach (var fact in facts)
        {
            result.Add(new PageFact(fact.Name, Redact(fact.Value(services))));
        }

        return [.. result];
    }

    private List<PageFact> Counters()
    {
        var counters = new List<PageFact>();
        var collector = _collector.Value;
        long requests = 0;
        var errors = new SortedDictionary<string, long>(StringComparer.Ordinal);
        foreach (var series in Series(collector, RequestDuration))
        {
            requests += series.Count;
            if (series.Label(StatusLabel) is { } status && status.Length == 3 && status[0] >= '4')
            {
                errors[status] = errors.GetValueOrDefault(status) + series.Count;
            }
        }

        counters.Add(Fact("requests", requests));
        foreach (var (status, count) in errors)
        {
            counters.Add(Fact("errors." + status, count));
        }

        if (_statistics is { } statistics)
        {
            var persisted = statistics.Snapshot().ByType;
            counters.Add(Fact("events.job", persisted.Job));
            counters.Add(Fact("events.metric", persisted.Metric));
            counters.Add(Fact("events.log", persisted.Log));
            AddByLabel(counters, collector, SinkEvents, "sink", "persisted.");
        }
        else
        {
            var accepted = SumByLabel(collector, AcceptedEvents, "type");
            foreach (var type in Types)
            {
                var name = IngestMetrics.TypeName(type);
                counters.Add(Fact("events." + name, accepted.GetValueOrDefault(name)));
            }

            AddByLabel(counters, collector, Forwards, "outcome", "forwards.");
        }

        return counters;
    }

    private static void AddByLabel(List<PageFact> counters, MetricsCollector? collector, string family, string label, string prefix)
    {
        foreach (var (value, count) in SumByLabel(collector, family, label))
        {
            counters.Add(Fact(prefix + value, count));
        }
    }

    private static SortedDictionary<string, long> SumByLabel(MetricsCollector? collector, string family, string label)
    {
        var sums = new SortedDictionary<string, long>(StringComparer.Ordinal);
        foreach (var series in Series(collector, family))
        {
            var key = series.Label(label) ?? "";
            sums[key] = sums.GetValueOrDefault(key) + (long)series.Value;
        }

        return sums;
    }

    private static ICollection<MetricSeries> Series(MetricsCollector? collector, string family) =>
        collector?.SeriesOf(family) ?? [];

    private static PageFact Fact(string name, long value) => new(name, value.ToString(CultureInfo.InvariantCulture));

    private static PageEvent[] Recent(RecentEvents recent)
    {
        var events = recent.Snapshot();
        var result = new PageEvent[events.Length];
        for (var i = 0; i < events.Length; i++)
        {
            var e = events[i];
            result[i] = new PageEvent(
                e.Type is { } type ? IngestMetrics.TypeName(type) : "",
                e.Source,
                e.Timestamp.ToString("O", CultureInfo.InvariantCulture),
                Detail(e));
        }

        return result;
    }

    private static string Detail(IngestEvent e) => e.Type switch
    {
        EventType.Job => $"{e.JobId} {e.Status}",
        EventType.Metric => string.Create(CultureInfo.InvariantCulture, $"{e.Name} = {e.Value} {e.Unit}").TrimEnd(),
        _ => $"{e.Level}: {e.Message}",
    };

    [GeneratedRegex(@"://[^/@\s,]*@")]
    private static partial Regex UserInfo();
}
