using System.Net;
using System.Text;
using Ingest.Storage.Tests.Servers;
using Ingest.Testing;

namespace Ingest.Storage.Tests;

/// <summary>
/// The store goes down under load and comes back: traffic before, during and after, every answer recorded.
/// During the outage the front-end must answer 503 with Retry-After (the back-end's 503 passed on, not a 502),
/// and the back-end itself 503 <c>store-unavailable</c>; afterwards requests succeed again.
/// </summary>
internal static class OutageDrill
{
    private const int RequestsBefore = 40;
    private const int RefusalsDuring = 10;
    private const int RequestsAfter = 40;

    public static async Task<Traffic> RunAsync(Flow flow, ScriptedServer server)
    {
        using var client = TestClient.Create(flow.FrontEnd.BaseAddress);
        var traffic = new Traffic(client);

        await traffic.SendUntilAsync(() => traffic.AcknowledgedRequests >= RequestsBefore);

        await server.StopAsync();
        var refusedBefore = traffic.Answered(HttpStatusCode.ServiceUnavailable);
        await traffic.SendUntilAsync(() => traffic.Answered(HttpStatusCode.ServiceUnavailable) - refusedBefore >= RefusalsDuring);
        await AssertBackEndRefusesAsync(flow);

        await server.StartAsync();
        var acknowledgedBefore = traffic.AcknowledgedRequests;
        await traffic.SendUntilAsync(() => traffic.AcknowledgedRequests - acknowledgedBefore >= RequestsAfter);
        return traffic;
    }

    /// <summary>The back-end's own answer while its store is down: 503, store-unavailable, Retry-After.</summary>
    private static async Task AssertBackEndRefusesAsync(Flow flow)
    {
        using var client = TestClient.Create(flow.BackEnd.BaseAddress);
        var body = """[{"type":"log","source":"drill","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","level":"info","message":"m"}]""";
        using var response = await client.PostAsync("/ingest/data", new StringContent(body, Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.NotNull(response.Headers.RetryAfter);
        Assert.Contains("urn:ingest:problem:store-unavailable", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
