using System.Diagnostics.Metrics;

namespace Ingest.Core.Diagnostics;

/// <summary>
/// Every instrument of the <c>Ingest</c> meter, in one place (docs/observability.md lists them with their
/// Prometheus names). Created from the host's <see cref="IMeterFactory"/>, so two services in one process
/// (the tests) keep separate meters. Request rate and duration come from ASP.NET Core's own
/// <c>Microsoft.AspNetCore.Hosting</c> meter; these add what only Ingest knows.
/// </summary>
public sealed class IngestMetrics
{
    public const string MeterName = "Ingest";

    /// <summary>Seconds buckets from 0.1 ms to 10 s: a loopback forward is sub-millisecond, a store outage is seconds.</summary>
    private static readonly double[] SecondsBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

    /// <summary>Event-count buckets up to the largest batch a store writer takes.</summary>
    private static readonly int[] EventBuckets = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

    private readonly Counter<long> _accepted;
    private readonly Counter<long> _forwards;
    private readonly Histogram<double> _forwardDuration;
    private readonly UpDownCounter<long> _forwardsActive;
    private readonly UpDownCounter<long> _batchQueued;
    private readonly Histogram<int> _batchSize;
    private readonly Histogram<double> _sinkWriteDuration;
    private readonly Counter<long> _sinkEvents;
    private readonly Histogram<int> _storeBatchSize;
    private readonly Histogram<double> _storeBatchDuration;
    private readonly UpDownCounter<long> _storeQueued;

    public IngestMetrics(IMeterFactory meterFactory)
    {
        var meter = meterFactory.Create(MeterName);
        var seconds = new InstrumentAdvice<double> { HistogramBucketBoundaries = SecondsBuckets };
        var events = new InstrumentAdvice<int> { HistogramBucketBoundaries = EventBuckets };

        _accepted = meter.CreateCounter<long>("ingest.events.accepted", "{event}", "Events the front-end accepted (forwarded and acknowledged), by type.");
        _forwards = meter.CreateCounter<long>("ingest.forwards", "{forward}", "Back-end calls of the front-end, by outcome (ok, backend-failed, backend-timeout, backend-unavailable, aborted).");
        _forwardDuration = meter.CreateHistogram("ingest.forward.duration", "s", "Duration of back-end calls, by outcome.", tags: null, advice: seconds);
        _forwardsActive = meter.CreateUpDownCounter<long>("ingest.forwards.active", "{forward}", "Back-end calls in flight.");
        _batchQueued = meter.CreateUpDownCounter<long>("ingest.batch.queued", "{event}", "Events waiting for a batch (Forwarding:Mode = Batched).");
        _batchSize = meter.CreateHistogram("ingest.batch.size", "{event}", "Events per batched back-end call.", tags: null, advice: events);
        _sinkWriteDuration = meter.CreateHistogram("ingest.sink.write.duration", "s", "Time from handing a request's events to a sink to its acknowledgement, by sink and outcome.", tags: null, advice: seconds);
        _sinkEvents = meter.CreateCounter<long>("ingest.sink.events", "{event}", "Events a sink acknowledged as persisted, by sink and type.");
        _storeBatchSize = meter.CreateHistogram("ingest.store.batch.size", "{event}", "Events per write to a store (one COPY, one pipeline, one file write), by sink.", tags: null, advice: events);
        _storeBatchDuration = meter.CreateHistogram("ingest.store.batch.duration", "s", "Duration of one write to a store, by sink and outcome.", tags: null, advice: seconds);
        _storeQueued = meter.CreateUpDownCounter<long>("ingest.store.queued", "{event}", "Events waiting for a store writer, by sink.");
    }

    /// <summary>Events of one request the front-end accepted, counted by type (one measurement per type present).</summary>
    public void Accepted(List<Events.IngestEvent> events)
    {
        long job = 0, metric = 0, log = 0;
        foreach (var e in events)
        {
            switch (e.Type)
            {
                case Events.EventType.Job: job++; break;
                case Events.EventType.Metric: metric++; break;
                default: log++; break;
            }
        }

        Accepted(Events.EventType.Job, job);
        Accepted(Events.EventType.Metric, metric);
        Accepted(Events.EventType.Log, log);
    }

    /// <summary>The lower-case name of <paramref name="type"/>, as the wire and the metrics' labels spell it.</summary>
    public static string TypeName(Events.EventType type) => type switch
    {
        Events.EventType.Job => "job",
        Events.EventType.Metric => "metric",
        _ => "log",
    };

    private void Accepted(Events.EventType type, long events)
    {
        if (events > 0)
        {
            _accepted.Add(events, new KeyValuePair<string, object?>("type", TypeName(type)));
        }
    }

    public void Forwarded(string outcome, double seconds)
    {
        var tag = new KeyValuePair<string, object?>("outcome", outcome);
        _forwards.Add(1, tag);
        _forwardDuration.Record(seconds, tag);
    }

    public void ForwardStarted() => _forwardsActive.Add(1);

    public void ForwardEnded() => _forwardsActive.Add(-1);

    public void BatchQueued(int events) => _batchQueued.Add(events);

    public void BatchSent(int events)
    {
        _batchQueued.Add(-events);
        _batchSize.Record(events);
    }

    public void SinkWritten(string sink, bool ok, double seconds) =>
        _sinkWriteDuration.Record(seconds, new KeyValuePair<string, object?>("sink", sink), new KeyValuePair<string, object?>("outcome", ok ? "ok" : "unavailable"));

    public void SinkPersisted(string sink, string type, long events) =>
        _sinkEvents.Add(events, new KeyValuePair<string, object?>("sink", sink), new KeyValuePair<string, object?>("type", type));

    public void StoreQueued(string sink, int events) => _storeQueued.Add(events, new KeyValuePair<string, object?>("sink", sink));

    public void StoreBatch(string sink, int events, bool ok, double seconds)
    {
        var sinkTag = new KeyValuePair<string, object?>("sink", sink);
        _storeBatchSize.Record(events, sinkTag);
        _storeBatchDuration.Record(seconds, sinkTag, new KeyValuePair<string, object?>("outcome", ok ? "ok" : "unavailable"));
    }
}
