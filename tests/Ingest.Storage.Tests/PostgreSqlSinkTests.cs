using System.Net;
using Ingest.Storage.Tests.Servers;
using Ingest.Testing;

namespace Ingest.Storage.Tests;

/// <summary>The PostgreSQL sink against a real server: rows for every acknowledged event, and an outage answered
/// with 503s that loses nothing acknowledged.</summary>
public sealed class PostgreSqlSinkTests(PostgreSqlFixture postgres) : IClassFixture<PostgreSqlFixture>
{
    [Fact]
    public async Task EveryAcknowledgedEventIsACommittedRowOfItsType()
    {
        var table = Table();
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: Settings(postgres.Server, table));
        using var client = TestClient.Create(flow.FrontEnd.BaseAddress);
        var traffic = new Traffic(client);

        await traffic.SendAsync(requests: 300);

        Assert.Empty(traffic.Unexpected);
        Assert.Equal(300, traffic.Answered(HttpStatusCode.OK));
        var stats = flow.Stats();
        Assert.Equal(1500, stats.Total);
        Assert.Equal(stats.ByType.Job, await postgres.Server.ScalarAsync($"SELECT count(*) FROM {table} WHERE type = 'job' AND job_id IS NOT NULL AND status IS NOT NULL"));
        Assert.Equal(stats.ByType.Metric, await postgres.Server.ScalarAsync($"SELECT count(*) FROM {table} WHERE type = 'metric' AND name = 'cpu' AND value IS NOT NULL"));
        Assert.Equal(stats.ByType.Log, await postgres.Server.ScalarAsync($"SELECT count(*) FROM {table} WHERE type = 'log' AND level = 'warn'"));
        Assert.Equal(300 * Traffic.PerRequest.Job, stats.ByType.Job);
        Assert.Equal(0, await postgres.Server.ScalarAsync($"SELECT count(*) FROM {table} WHERE \"timestamp\" <> '2026-11-22T10:00:00Z'"));
    }

    [Fact]
    public async Task AnOutageIsAnswered503WithRetryAfterAndLosesNothingAcknowledged()
    {
        // A server of its own: this test stops it.
        await using var server = new PostgreSqlServer();
        await server.StartAsync();
        var table = Table();
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: Settings(server, table));

        var traffic = await OutageDrill.RunAsync(flow, server);

        Assert.Empty(traffic.Unexpected);
        Assert.Equal(0, traffic.RetryAfterMissing);
        Assert.Equal(traffic.AcknowledgedEvents, flow.Stats().Total);
        // Every acknowledged event is a row. A COPY cut off by the shutdown is rolled back, so there are no more —
        // unless a commit landed just as its connection died, which at-least-once delivery allows.
        var rows = await server.ScalarAsync($"SELECT count(*) FROM {table}");
        Assert.InRange(rows, traffic.AcknowledgedEvents, traffic.SentEvents);
    }

    [Fact]
    public async Task AMissingConnectionStringStopsTheStartNamingTheKey()
    {
        var settings = new FlowConfiguration().BackEnd(new() { ["Sinks:Job"] = "PostgreSql" });
        var error = await Assert.ThrowsAnyAsync<Exception>(() => ServiceHost.StartAsync(Hosting.ServiceRole.BackEnd, settings));
        Assert.Contains("Sinks:PostgreSql:ConnectionString is empty", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnUnreachableServerStopsTheStartNamingTheKey()
    {
        var settings = new FlowConfiguration().BackEnd(new()
        {
            ["Sinks:Default"] = "PostgreSql",
            // A port nobody listens on: the server of this fixture, stopped, would take longer to set up.
            ["Sinks:PostgreSql:ConnectionString"] = "Host=127.0.0.1;Port=1;Username=ingest;Database=postgres;Timeout=2",
        });
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => ServiceHost.StartAsync(Hosting.ServiceRole.BackEnd, settings));
        Assert.StartsWith("Sinks:PostgreSql:ConnectionString: cannot create the table", error.Message, StringComparison.Ordinal);
    }

    private static Dictionary<string, string?> Settings(PostgreSqlServer server, string table) => new()
    {
        ["Sinks:Default"] = "PostgreSql",
        ["Sinks:PostgreSql:ConnectionString"] = server.ConnectionString,
        ["Sinks:PostgreSql:Table"] = table,
        ["Sinks:PostgreSql:PoolSize"] = "2",
    };

    private static string Table() => "events_" + Guid.NewGuid().ToString("N")[..12];
}
