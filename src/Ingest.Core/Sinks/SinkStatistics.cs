using Ingest.Core.Contract;
using Ingest.Core.Events;

namespace Ingest.Core.Sinks;

/// <summary>
/// Counts what the sinks have persisted, per type. The one source of <c>GET /ingest/stats</c>: the lab and
/// the tests compare it with what clients saw acknowledged, so it is incremented only after a sink acked.
/// </summary>
public sealed class SinkStatistics
{
    private long _job;
    private long _metric;
    private long _log;

    /// <summary>Counts events a sink acknowledged; returns the counts per type it added.</summary>
    public (long Job, long Metric, long Log) Record(List<IngestEvent> events)
    {
        long job = 0, metric = 0, log = 0;
        foreach (var e in events)
        {
            switch (e.Type)
            {
                case EventType.Job: job++; break;
                case EventType.Metric: metric++; break;
                default: log++; break;
            }
        }

        if (job > 0)
        {
            Interlocked.Add(ref _job, job);
        }

        if (metric > 0)
        {
            Interlocked.Add(ref _metric, metric);
        }

        if (log > 0)
        {
            Interlocked.Add(ref _log, log);
        }

        return (job, metric, log);
    }

    public IngestStats Snapshot()
    {
        var counts = new TypeCounts
        {
            Job = Interlocked.Read(ref _job),
            Metric = Interlocked.Read(ref _metric),
            Log = Interlocked.Read(ref _log),
        };
        return new IngestStats { Total = counts.Job + counts.Metric + counts.Log, ByType = counts };
    }
}
