using Ingest.Core.Events;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Sinks;

/// <summary>Routes each event to the sink configured for its type, then records it in <see cref="SinkStatistics"/>.</summary>
public sealed class SinkRouter
{
    private readonly IEventSink[] _byType;
    private readonly bool _oneSink;
    private readonly SinkStatistics _statistics;

    public SinkRouter(IOptions<SinkOptions> sinkOptions, SinkStatistics statistics)
    {
        var options = sinkOptions.Value;
        _statistics = statistics;
        var sinks = new Dictionary<SinkKind, IEventSink>();
        IEventSink Get(SinkKind kind)
        {
            if (!sinks.TryGetValue(kind, out var sink))
            {
                sink = kind switch
                {
                    SinkKind.Null => new NullSink(),
                    SinkKind.Memory => new MemorySink(options.RecentCapacity),
                    _ => throw new ArgumentOutOfRangeException(nameof(sinkOptions), kind, "Unknown sink."),
                };
                sinks.Add(kind, sink);
            }

            return sink;
        }

        _byType = new IEventSink[Enum.GetValues<EventType>().Length];
        _byType[(int)EventType.Job] = Get(options.Job ?? options.Default);
        _byType[(int)EventType.Metric] = Get(options.Metric ?? options.Default);
        _byType[(int)EventType.Log] = Get(options.Log ?? options.Default);
        _oneSink = sinks.Count == 1;
        Sinks = [.. sinks.Values];
    }

    /// <summary>Every distinct sink in use.</summary>
    public IReadOnlyList<IEventSink> Sinks { get; }

    public IEventSink SinkFor(EventType type) => _byType[(int)type];

    public async ValueTask WriteAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        if (_oneSink)
        {
            await _byType[0].WriteAsync(events, cancellationToken);
        }
        else
        {
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
                await sink.WriteAsync(group, cancellationToken);
            }
        }

        _statistics.Record(events);
    }
}
