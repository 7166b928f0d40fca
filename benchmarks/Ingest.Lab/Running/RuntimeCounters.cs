using System.Globalization;

namespace Ingest.Lab.Running;

/// <summary>
/// What the lab reads of a .NET service's runtime, from the System.Runtime meter on its Prometheus <c>/metrics</c>:
/// GC pause time, collections, bytes allocated and exceptions thrown (totals since start), thread-pool threads and
/// queue length, and timers (current values). The soak reads it each second, a run before and after each load phase. A
/// value the page lacks is null — except exceptions: the runtime writes their counter's first series with the first
/// exception, so a page with the runtime's figures and without it says none was thrown yet.
/// </summary>
internal sealed record RuntimeCounters(
    double? GcPauseSeconds, double? Collections, double? Gen1Collections, double? Gen2Collections, double? AllocatedBytes,
    double? PoolThreads, double? PoolQueue, double? Timers, double? Exceptions = null)
{
    /// <summary>The service's counters now, from its <c>/metrics</c>; null when it does not answer in the client's time.</summary>
    public static async Task<RuntimeCounters?> ReadAsync(HttpClient http, Uri metrics, CancellationToken cancellationToken)
    {
        try
        {
            return Parse(await http.GetStringAsync(metrics, cancellationToken));
        }
        catch (HttpRequestException)
        {
            return null;
        }
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return null;
        }
    }

    /// <summary>Reads the figures from a Prometheus text page; series of one family (per generation, per exception
    /// type) are summed.</summary>
    public static RuntimeCounters Parse(string page)
    {
        double? pause = null, collections = null, gen1 = null, gen2 = null, allocated = null, threads = null, queue = null, timers = null, exceptions = null;
        var runtime = false;
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
            runtime |= name.StartsWith("dotnet_", StringComparison.Ordinal);
            switch (name)
            {
                case "dotnet_gc_pause_time_seconds_total":
                    pause = (pause ?? 0) + value;
                    break;
                case "dotnet_gc_collections_total":
                    collections = (collections ?? 0) + value;
                    if (series.Contains("\"gen1\"", StringComparison.Ordinal))
                    {
                        gen1 = (gen1 ?? 0) + value;
                    }
                    else if (series.Contains("\"gen2\"", StringComparison.Ordinal))
                    {
                        gen2 = (gen2 ?? 0) + value;
                    }

                    break;
                case "dotnet_gc_heap_total_allocated_bytes_total":
                    allocated = (allocated ?? 0) + value;
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
                case "dotnet_exceptions_total":
                    exceptions = (exceptions ?? 0) + value;
                    break;
            }
        }

        return new RuntimeCounters(pause, collections, gen1, gen2, allocated, threads, queue, timers, exceptions ?? (runtime ? 0 : null));
    }
}
