using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Sinks;

/// <summary>
/// Routes each event to the sink configured for its type, then records it in <see cref="SinkStatistics"/>.
/// <see cref="SinkKind.Null"/> and <see cref="SinkKind.Memory"/> are built in; every other sink is a keyed
/// <see cref="IEventSink"/> service (key: its <see cref="SinkKind"/>), which Ingest.Storage registers, so Core
/// carries no store client.
/// </summary>
public sealed class SinkRouter
{
    private readonly IEventSink[] _byType;
    private readonly bool _oneSink;
    private readonly SinkStatistics _statistics;
    private readonly IngestMetrics? _metrics;

    public SinkRouter(IOptions<SinkOptions> sinkOptions, SinkStatistics statistics)
        : this(sinkOptions, statistics, services: null, metrics: null)
    {
    }

    public SinkRouter(IOptions<SinkOptions> sinkOptions, SinkStatistics statistics, IServiceProvider? services, IngestMetrics? metrics)
    {
        var options = sinkOptions.Value;
        _statistics = statistics;
        _metrics = metrics;
        Recent = new RecentEvents(options.StatusPageEvents);
        var sinks = new Dictionary<SinkKind, IEventSink>();
        IEventSink Get(string key, SinkKind kind)
        {
            if (!sinks.TryGetValue(kind, out var sink))
            {
                sink = services?.GetKeyedService<IEventSink>(kind) ?? kind switch
                {
                    SinkKind.Null => new NullSink(),
                    SinkKind.Memory => new MemorySink(options.RecentCapacity),
                    _ => throw new InvalidOperationException(
                        $"{SinkOptions.SectionName}:{key} = {kind}, but no {kind} sink is registered: the back-end registers the stores with AddIngestStorage() (Ingest.Storage)."),
                };
                sinks.Add(kind, sink);
            }

            return sink;
        }

        _byType = new IEventSink[Enum.GetValues<EventType>().Length];
        _byType[(int)EventType.Job] = Get(options.Job is null ? nameof(options.Default) : nameof(options.Job), options.Job ?? options.Default);
        _byType[(int)EventType.Metric] = Get(options.Metric is null ? nameof(options.Default) : nameof(options.Metric), options.Metric ?? options.Default);
        _byType[(int)EventType.Log] = Get(options.Log is null ? nameof(options.Default) : nameof(options.Log), options.Log ?? options.Default);
        _oneSink = sinks.Count == 1;
        Sinks = [.. sinks.Values];
    }

    /// <summary>The last events the sinks acknowledged, for the status page.</summary>
    public RecentEvents Recent { get; }

    /// <summary>Every distinct sink in use.</summary>
    public IReadOnlyList<IEventSink> Sinks { get; }

    public IEventSink SinkFor(EventType type) => _byType[(int)type];

    /// <summary>Lower-case sink names, as metrics label them.</summary>
    public static string Name(SinkKind kind) => kind switch
    {
        SinkKind.Null => "null",
        SinkKind.Memory => "memory",
        SinkKind.File => "file",
        SinkKind.PostgreSql => "postgresql",
        SinkKind.Redis => "redis",
        _ => kind.ToString(),
    };

    /// <summary>
    /// Writes the events; completes once every sink acknowledged its share. A sink that cannot take them throws
    /// <see cref="StoreUnavailableException"/>: the shares other sinks acknowledged before are counted, the
    /// failed one is not.
    /// </summary>
    public async ValueTask WriteAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        if (_oneSink)
        {
            await WriteAsync(_byType[0], events, cancellationToken);
            return;
        }

        // Several sinks: one list per sink, written in turn. Allocates per request, but only in the
        // configurations that split types across stores, where the store dominates anyway.
        var groups = new Dictionary<IEventSink, List<IngestEvent>>();
        foreach (var e in events)
        {
            var sink = SinkFor(e.Type!.Value);
            if (!groups.TryGetValue(sink, out var group))
            {
                groups.Add(sink, group = []);
            }

            group.Add(e);
        }

        foreach (var (sink, group) in groups)
        {
            await WriteAsync(sink, group, cancellationToken);
        }
    }

    private async ValueTask WriteAsync(IEventSink sink, List<IngestEvent> events, CancellationToken cancellationToken)
    {
        if (_metrics is null)
        {
            await sink.WriteAsync(events, cancellationToken);
            _statistics.Record(events);
            Recent.Record(events);
            return;
        }

        var started = TimeProvider.System.GetTimestamp();
        var name = Name(sink.Kind);
        try
        {
            await sink.WriteAsync(events, cancellationToken);
        }
        catch (StoreUnavailableException)
        {
            _metrics.SinkWritten(name, ok: false, TimeProvider.System.GetElapsedTime(started).TotalSeconds);
            throw;
        }

        _metrics.SinkWritten(name, ok: true, TimeProvider.System.GetElapsedTime(started).TotalSeconds);
        var (job, metric, log) = _statistics.Record(events);
        Recent.Record(events);
        if (job > 0)
        {
            _metrics.SinkPersisted(name, IngestMetrics.TypeName(EventType.Job), job);
        }

        if (metric > 0)
        {
            _metrics.SinkPersisted(name, IngestMetrics.TypeName(EventType.Metric), metric);
        }

        if (log > 0)
        {
            _metrics.SinkPersisted(name, IngestMetrics.TypeName(EventType.Log), log);
        }
    }
}
