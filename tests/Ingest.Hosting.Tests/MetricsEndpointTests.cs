using System.Net;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>GET /metrics on both services: valid exposition text whose counts match the traffic sent.</summary>
public sealed class MetricsEndpointTests
{
    private const int Accepted = 37;
    private const int Rejected = 3;

    [Fact]
    public async Task BothServicesCountExactlyTheRequestsTheyServed()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration());
        await SendAsync(flow, Accepted, Rejected);

        // A request's duration is recorded as it completes, just after the client has its answer: poll briefly.
        var frontEnd = await ScrapeUntilAsync(flow.FrontEnd, m => Requests(m, "/ingest/event", "400") == Rejected);
        var backEnd = await ScrapeUntilAsync(flow.BackEnd, m => Requests(m, "/ingest/data", "200") == Accepted);

        Assert.Equal(Accepted, Requests(frontEnd, "/ingest/event", "200"));
        Assert.Equal(Rejected, Requests(frontEnd, "/ingest/event", "400"));
        Assert.Equal(Accepted, frontEnd.Sum("ingest_forwards_total", ("outcome", "ok")));
        Assert.Equal(Accepted, frontEnd.Sum("ingest_forward_duration_seconds_count", ("outcome", "ok")));
        Assert.Equal(Accepted, frontEnd.Sum("ingest_forward_duration_seconds_bucket", ("outcome", "ok"), ("le", "+Inf")));
        Assert.Equal(0, frontEnd.Sum("ingest_forwards_active"));
        Assert.Equal(Accepted, backEnd.Sum("ingest_sink_events_total", ("sink", "memory"), ("type", "job")));
        Assert.Equal(Accepted, backEnd.Sum("ingest_sink_write_duration_seconds_count", ("sink", "memory"), ("outcome", "ok")));

        Assert.Equal("histogram", frontEnd.Types["http_server_request_duration_seconds"]);
        Assert.Equal("counter", frontEnd.Types["ingest_forwards_total"]);
        foreach (var metrics in new[] { frontEnd, backEnd })
        {
            // The runtime's and Kestrel's meters, as the dashboard reads them.
            Assert.True(metrics.Sum("dotnet_process_cpu_time_seconds_total") > 0);
            Assert.True(metrics.Sum("dotnet_process_memory_working_set_bytes") > 0);
            Assert.True(metrics.Sum("dotnet_gc_heap_total_allocated_bytes_total") > 0);
            Assert.True(metrics.Has("dotnet_gc_collections_total"));
            Assert.True(metrics.Sum("dotnet_thread_pool_thread_count") > 0);
            Assert.Equal("gauge", metrics.Types["dotnet_thread_pool_queue_length"]);
            Assert.True(metrics.Sum("kestrel_active_connections") >= 1);
        }
    }

    [Fact]
    public async Task AMetricsPortServesMetricsThereAndOnlyThere()
    {
        var port = FreePort();
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, new FlowConfiguration().BackEnd(new()
        {
            ["Metrics:Port"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture),
        }));
        using var main = TestClient.Create(backEnd.BaseAddress);
        using var metrics = TestClient.Create(new Uri($"http://127.0.0.1:{port}/"));

        using var onMetricsPort = await metrics.GetAsync("/metrics");
        using var elsewhereOnMetricsPort = await metrics.GetAsync("/ingest/stats");
        using var onMainPort = await main.GetAsync("/metrics");
        using var stats = await main.GetAsync("/ingest/stats");

        Assert.Equal(HttpStatusCode.OK, onMetricsPort.StatusCode);
        Assert.Equal("text/plain; version=0.0.4; charset=utf-8", onMetricsPort.Content.Headers.ContentType!.ToString());
        Assert.True(PrometheusText.Parse(await onMetricsPort.Content.ReadAsStringAsync()).Has("dotnet_process_cpu_time_seconds_total"));
        Assert.Equal(HttpStatusCode.NotFound, elsewhereOnMetricsPort.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, onMainPort.StatusCode);
        Assert.Equal(HttpStatusCode.OK, stats.StatusCode);
    }

    [Fact]
    public async Task WithAManagementPortMetricsAnswerThereBesideTheHealthCheck()
    {
        var (main, management) = (FreePort(), FreePort());
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd,
            new FlowConfiguration().BackEnd(new() { ["Management:Port"] = management.ToString(System.Globalization.CultureInfo.InvariantCulture) }),
            url: $"http://127.0.0.1:{main};http://127.0.0.1:{management}");
        using var mainClient = TestClient.Create(new Uri($"http://127.0.0.1:{main}/"));
        using var managementClient = TestClient.Create(new Uri($"http://127.0.0.1:{management}/"));

        using var metricsOnManagement = await managementClient.GetAsync("/metrics");
        using var healthOnManagement = await managementClient.GetAsync("/healthz");
        using var metricsOnMain = await mainClient.GetAsync("/metrics");

        Assert.Equal(HttpStatusCode.OK, metricsOnManagement.StatusCode);
        Assert.Equal(HttpStatusCode.OK, healthOnManagement.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, metricsOnMain.StatusCode);
    }

    [Fact]
    public async Task MetricsOffMeansNoEndpoint()
    {
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, new FlowConfiguration().BackEnd(new() { ["Metrics:Enabled"] = "false" }));
        using var client = TestClient.Create(backEnd.BaseAddress);

        using var response = await client.GetAsync("/metrics");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    private static double Requests(PrometheusText metrics, string route, string status) =>
        metrics.Sum("http_server_request_duration_seconds_count", ("http_route", route), ("http_response_status_code", status));

    private static async Task<PrometheusText> ScrapeUntilAsync(ServiceHost host, Func<PrometheusText, bool> done)
    {
        using var client = TestClient.Create(host.BaseAddress);
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        while (true)
        {
            using var response = await client.GetAsync("/metrics");
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            var metrics = PrometheusText.Parse(await response.Content.ReadAsStringAsync());
            if (done(metrics) || DateTime.UtcNow > deadline)
            {
                return metrics;
            }

            await Task.Delay(50);
        }
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>Sends <paramref name="accepted"/> classic payloads (each answered 200) and <paramref name="rejected"/>
    /// invalid ones (each answered 400): the traffic the counting tests then look for.</summary>
    internal static async Task SendAsync(Flow flow, int accepted, int rejected)
    {
        for (var i = 0; i < accepted; i++)
        {
            using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        for (var i = 0; i < rejected; i++)
        {
            using var response = await flow.Client.PostEventAsync("{\"type\":\"nope\"}");
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        }
    }
}
