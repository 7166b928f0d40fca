using System.Net;
using Ingest.Storage.Tests.Servers;
using Ingest.Testing;

namespace Ingest.Storage.Tests;

/// <summary>The Redis sink against a real server: an entry per acknowledged event in its type's stream, approximate
/// trimming, and an outage answered with 503s that loses nothing acknowledged.</summary>
public sealed class RedisSinkTests(RedisFixture redis) : IClassFixture<RedisFixture>
{
    [Fact]
    public async Task EveryAcknowledgedEventIsAnEntryInItsTypesStream()
    {
        var prefix = Prefix();
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: Settings(redis.Server, prefix));
        using var client = TestClient.Create(flow.FrontEnd.BaseAddress);
        var traffic = new Traffic(client);

        await traffic.SendAsync(requests: 300);

        Assert.Empty(traffic.Unexpected);
        Assert.Equal(300, traffic.Answered(HttpStatusCode.OK));
        var stats = flow.Stats();
        Assert.Equal(1500, stats.Total);
        Assert.Equal(stats.ByType.Job, await redis.Server.StreamLengthAsync(prefix + "job"));
        Assert.Equal(stats.ByType.Metric, await redis.Server.StreamLengthAsync(prefix + "metric"));
        Assert.Equal(stats.ByType.Log, await redis.Server.StreamLengthAsync(prefix + "log"));

        // An entry's fields are the normalised event's members, in the order the sink writes them.
        var entry = await redis.Server.FirstEntryAsync(prefix + "metric");
        Assert.Equal(["type", "source", "timestamp", "received_at", "name", "value", "unit"], entry.Values.Select(f => (string?)f.Name));
        Assert.Equal("metric", (string?)entry["type"]);
        Assert.Equal("cpu", (string?)entry["name"]);
        Assert.Equal("ratio", (string?)entry["unit"]);
        Assert.Equal("2026-11-22T10:00:00.0000000Z", (string?)entry["timestamp"]);
    }

    [Fact]
    public async Task MaxLengthTrimsEachStreamToAboutThatMany()
    {
        var prefix = Prefix();
        var settings = Settings(redis.Server, prefix);
        settings["Sinks:Redis:MaxLength"] = "100";
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: settings);
        using var client = TestClient.Create(flow.FrontEnd.BaseAddress);

        await new Traffic(client).SendAsync(requests: 500);

        // 1,000 jobs appended; "~" trims whole macro nodes (100 entries each by default), so a little over 100 stay.
        Assert.Equal(1_000, flow.Stats().ByType.Job);
        Assert.InRange(await redis.Server.StreamLengthAsync(prefix + "job"), 100, 300);
    }

    [Fact]
    public async Task AnOutageIsAnswered503WithRetryAfterAndLosesNothingAcknowledged()
    {
        // A server of its own, persisting every write (AOF, fsync always), so its streams survive the stop.
        await using var server = new RedisServer(durable: true);
        await server.StartAsync();
        var prefix = Prefix();
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: Settings(server, prefix));

        var traffic = await OutageDrill.RunAsync(flow, server);

        Assert.Empty(traffic.Unexpected);
        Assert.Equal(0, traffic.RetryAfterMissing);
        Assert.Equal(traffic.AcknowledgedEvents, flow.Stats().Total);
        // A pipeline cut off by the stop may have appended some of its entries before failing: at least once.
        var entries = await server.StreamLengthAsync(prefix + "job") + await server.StreamLengthAsync(prefix + "metric") + await server.StreamLengthAsync(prefix + "log");
        Assert.InRange(entries, traffic.AcknowledgedEvents, traffic.SentEvents);
    }

    [Fact]
    public async Task AnUnreachableServerStopsTheStartNamingTheKey()
    {
        var settings = new FlowConfiguration().BackEnd(new() { ["Sinks:Log"] = "Redis", ["Sinks:Redis:Endpoint"] = "127.0.0.1:1" });
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => ServiceHost.StartAsync(Hosting.ServiceRole.BackEnd, settings));
        Assert.StartsWith("Sinks:Redis:Endpoint: Redis at 127.0.0.1:1 does not answer PING", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnErrorReplyFailsTheWholeBatchWith503()
    {
        // The job stream's key holds a string: every XADD to it is answered WRONGTYPE, so no request (each has jobs)
        // may be acknowledged, while the server itself stays up.
        var prefix = Prefix();
        await redis.Server.SetStringAsync(prefix + "job", "not a stream");
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: Settings(redis.Server, prefix));
        using var client = TestClient.Create(flow.FrontEnd.BaseAddress);
        var traffic = new Traffic(client);

        await traffic.SendAsync(requests: 20);

        Assert.Empty(traffic.Unexpected);
        Assert.Equal(20, traffic.Answered(HttpStatusCode.ServiceUnavailable));
        Assert.Equal(0, traffic.RetryAfterMissing);
        Assert.Equal(0, flow.Stats().Total);
    }

    private static Dictionary<string, string?> Settings(RedisServer server, string prefix) => new()
    {
        ["Sinks:Default"] = "Redis",
        ["Sinks:Redis:Endpoint"] = server.Endpoint,
        ["Sinks:Redis:JobStream"] = prefix + "job",
        ["Sinks:Redis:MetricStream"] = prefix + "metric",
        ["Sinks:Redis:LogStream"] = prefix + "log",
    };

    private static string Prefix() => $"test:{Guid.NewGuid():N}:";
}
