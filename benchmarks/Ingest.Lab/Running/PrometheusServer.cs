using System.Globalization;
using System.Text;
using System.Text.Json;
using Ingest.Lab.Processes;
using Ingest.Lab.Results;

namespace Ingest.Lab.Running;

/// <summary>
/// Debian's Prometheus scraping a scenario's .NET services every second (<c>--prometheus</c>): its configuration is
/// written into the scenario folder, it listens on loopback only, its storage is a throwaway directory deleted on
/// dispose. After the run the lab asks its HTTP API for each service's figures over the measured window.
/// </summary>
internal sealed class PrometheusServer : IAsyncDisposable
{
    public const string Package = "prometheus";

    /// <summary>One scrape a second: a scenario's repeats last seconds, and rate() needs two samples in its window.</summary>
    public static readonly TimeSpan ScrapeInterval = TimeSpan.FromSeconds(1);

    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);

    /// <summary>The shortest window queried: three scrapes, so a very short run still has a rate.</summary>
    private const int MinimumWindowSeconds = 3;

    private readonly ServiceProcess _process;
    private readonly string _storage;
    private readonly HttpClient _client;

    private PrometheusServer(ServiceProcess process, string storage, Uri address)
    {
        _process = process;
        _storage = storage;
        _client = new HttpClient { BaseAddress = address, Timeout = TimeSpan.FromSeconds(10) };
    }

    public static async Task<PrometheusServer> StartAsync(string folder, IReadOnlyDictionary<string, IReadOnlyList<Uri>> jobs, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(folder);
        var config = Path.Combine(folder, "prometheus.yml");
        await File.WriteAllTextAsync(config, Config(jobs), cancellationToken);
        var storage = Path.Combine(Path.GetTempPath(), $"ingest-lab-prometheus-{Guid.NewGuid():N}");
        var port = FreePorts.Next();
        var address = new Uri($"http://127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}/");
        var process = ServiceProcess.Start("prometheus", "prometheus",
        [
            "--config.file=" + config,
            "--storage.tsdb.path=" + storage,
            "--storage.tsdb.retention.time=1d",
            "--web.listen-address=127.0.0.1:" + port.ToString(CultureInfo.InvariantCulture),
            "--log.level=warn",
        ], workingDirectory: folder);
        var server = new PrometheusServer(process, storage, address);
        try
        {
            await server.WaitUntilReadyAsync(cancellationToken);
            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>The figures of one job over [end - window, end], evaluated at <paramref name="end"/>.</summary>
    public async Task<PrometheusFigures> FiguresAsync(string job, DateTimeOffset start, DateTimeOffset end, CancellationToken cancellationToken)
    {
        var window = $"{Math.Max(MinimumWindowSeconds, (int)Math.Ceiling((end - start).TotalSeconds)).ToString(CultureInfo.InvariantCulture)}s";
        // Routed requests only: the scrapes of /metrics are not routed, so they do not count as traffic.
        var requests = $"job=\"{job}\",http_route=~\".+\"";
        var queries = new Dictionary<string, string>
        {
            ["requestsPerSecond"] = $"sum(rate(http_server_request_duration_seconds_count{{{requests}}}[{window}]))",
            ["p99Ms"] = $"1000 * histogram_quantile(0.99, sum by (le) (rate(http_server_request_duration_seconds_bucket{{{requests}}}[{window}])))",
            ["cpuCores"] = $"sum(rate(dotnet_process_cpu_time_seconds_total{{job=\"{job}\"}}[{window}]))",
            ["peakWorkingSetBytes"] = $"max(max_over_time(dotnet_process_memory_working_set_bytes{{job=\"{job}\"}}[{window}]))",
            ["gcCollections"] = $"sum(increase(dotnet_gc_collections_total{{job=\"{job}\"}}[{window}]))",
            ["scrapes"] = $"sum(sum_over_time(up{{job=\"{job}\"}}[{window}]))",
        };
        var values = new Dictionary<string, double?>();
        foreach (var (name, query) in queries)
        {
            values[name] = await QueryAsync(query, end, cancellationToken);
        }

        return new PrometheusFigures
        {
            RequestsPerSecond = values["requestsPerSecond"],
            P99Ms = values["p99Ms"],
            CpuCores = values["cpuCores"],
            PeakWorkingSetBytes = values["peakWorkingSetBytes"],
            GcCollections = values["gcCollections"],
            Scrapes = values["scrapes"],
            Queries = queries,
        };
    }

    public async ValueTask DisposeAsync()
    {
        _client.Dispose();
        await _process.DisposeAsync();
        if (Directory.Exists(_storage))
        {
            Directory.Delete(_storage, recursive: true);
        }
    }

    /// <summary>An instant query; null when the result is empty or not a number.</summary>
    private async Task<double?> QueryAsync(string query, DateTimeOffset at, CancellationToken cancellationToken)
    {
        var time = (at.ToUnixTimeMilliseconds() / 1000.0).ToString("0.###", CultureInfo.InvariantCulture);
        var json = await _client.GetStringAsync($"api/v1/query?query={Uri.EscapeDataString(query)}&time={time}", cancellationToken);
        using var document = JsonDocument.Parse(json);
        var result = document.RootElement.GetProperty("data").GetProperty("result");
        if (result.GetArrayLength() == 0)
        {
            return null;
        }

        var text = result[0].GetProperty("value")[1].GetString();
        return double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value) ? value : null;
    }

    private async Task WaitUntilReadyAsync(CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + StartTimeout;
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"prometheus exited during start-up. Last lines:\n{_process.LastLines()}");
            }

            try
            {
                using var response = await _client.GetAsync("-/ready", cancellationToken);
                if (response.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
            }

            if (DateTime.UtcNow > deadline)
            {
                throw new InvalidOperationException($"prometheus was not ready within {StartTimeout.TotalSeconds:0} s. Last lines:\n{_process.LastLines()}");
            }

            await Task.Delay(100, cancellationToken);
        }
    }

    private static string Config(IReadOnlyDictionary<string, IReadOnlyList<Uri>> jobs)
    {
        var yaml = new StringBuilder();
        yaml.AppendLine("# Written by the Ingest lab for one scenario: every .NET service's /metrics, once a second.");
        yaml.AppendLine("global:");
        yaml.AppendLine(CultureInfo.InvariantCulture, $"  scrape_interval: {ScrapeInterval.TotalSeconds:0}s");
        yaml.AppendLine(CultureInfo.InvariantCulture, $"  scrape_timeout: {ScrapeInterval.TotalSeconds:0}s");
        yaml.AppendLine("scrape_configs:");
        foreach (var (job, targets) in jobs)
        {
            yaml.AppendLine(CultureInfo.InvariantCulture, $"  - job_name: {job}");
            yaml.AppendLine("    static_configs:");
            yaml.AppendLine(CultureInfo.InvariantCulture, $"      - targets: [{string.Join(", ", targets.Select(t => $"'{t.Authority}'"))}]");
        }

        return yaml.ToString();
    }
}
