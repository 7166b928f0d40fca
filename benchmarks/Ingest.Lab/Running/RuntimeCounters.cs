using System.Globalization;

namespace Ingest.Lab.Running;

/// <summary>
/// What the soak reads of a .NET service's runtime each second, from the System.Runtime meter on its Prometheus
/// <c>/metrics</c>: GC pause time and collections (totals since start), thread-pool threads and queue length, and
/// timers (current values). A value the page lacks is null.
/// </summary>
internal sealed record RuntimeCounters(double? GcPauseSeconds, double? Collections, double? Gen2Collections, double? PoolThreads, double? PoolQueue, double? Timers)
{
    /// <summary>Reads the figures from a Prometheus text page; series of one family (per generation) are summed.</summary>
    public static RuntimeCounters Parse(string page)
    {
        double? pause = null, collections = null, gen2 = null, threads = null, queue = null, timers = null;
        foreach (var raw in page.AsSpan().EnumerateLines())
        {
            var line = raw.Trim();
            if (line.IsEmpty || line[0] == '#')
            {
                continue;
            }

            var space = line.LastIndexOf(' ');
            if (space < 0 || !double.TryParse(line[(space + 1)..], NumberStyles.Float, CultureInfo.InvariantCulture, out var value))
            {
                continue;
            }

            var series = line[..space];
            var brace = series.IndexOf('{');
            var name = brace < 0 ? series : series[..brace];
            switch (name)
            {
                case "dotnet_gc_pause_time_seconds_total":
                    pause = (pause ?? 0) + value;
                    break;
                case "dotnet_gc_collections_total":
                    collections = (collections ?? 0) + value;
                    if (series.Contains("\"gen2\"", StringComparison.Ordinal))
                    {
                        gen2 = (gen2 ?? 0) + value;
                    }

                    break;
                case "dotnet_thread_pool_thread_count":
                    threads = (threads ?? 0) + value;
                    break;
                case "dotnet_thread_pool_queue_length":
                    queue = (queue ?? 0) + value;
                    break;
                case "dotnet_timer_count":
                    timers = (timers ?? 0) + value;
                    break;
            }
        }

        return new RuntimeCounters(pause, collections, gen2, threads, queue, timers);
    }
}
