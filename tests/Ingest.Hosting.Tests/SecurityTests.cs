using System.Net;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>Only callers holding a key get in; operational endpoints can live on a port of their own.</summary>
public sealed class SecurityTests
{
    private const string SharedKey = "a-long-random-shared-secret-for-tests";

    [Theory]
    [InlineData(ApiStyle.Minimal)]
    [InlineData(ApiStyle.Mvc)]
    [InlineData(ApiStyle.Raw)]
    public async Task TheBackEndAcceptsForwardsOnlyFromFrontEndsHoldingTheSharedKey(ApiStyle style)
    {
        var key = new Dictionary<string, string?> { ["Security:SharedKey"] = SharedKey };
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style), frontEndExtra: key, backEndExtra: key);
        using var direct = TestClient.Create(flow.BackEnd.BaseAddress);

        using var forwarded = await flow.Client.PostEventAsync(SamplePayloads.Classic);
        using var anonymous = await direct.PostAsync("/ingest/data", Forward());
        var wrong = new HttpRequestMessage(HttpMethod.Post, "/ingest/data") { Content = Forward() };
        wrong.Headers.Add("X-Ingest-Key", SharedKey + "x");
        using var wrongKey = await direct.SendAsync(wrong);

        Assert.Equal(HttpStatusCode.OK, forwarded.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        BadInputTests.AssertProblem(await anonymous.Content.ReadAsStringAsync(), anonymous.Content.Headers.ContentType?.MediaType, 401, "unauthorized", null, "no key");
        Assert.Equal(HttpStatusCode.Unauthorized, wrongKey.StatusCode);
        Assert.Equal(1, flow.Stats().Total);
    }

    [Fact]
    public async Task AFrontEndWithoutTheKeyGets502FromAGuardedBackEnd()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: new() { ["Security:SharedKey"] = SharedKey });

        using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);

        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
        Assert.Equal(0, flow.Stats().Total);
    }

    [Fact]
    public async Task TheFrontEndCanRequireAnApiKey()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), frontEndExtra: new() { ["Security:ApiKeys:0"] = "client-one", ["Security:ApiKeys:1"] = "client-two" });

        using var anonymous = await flow.Client.PostEventAsync(SamplePayloads.Classic);
        var request = new HttpRequestMessage(HttpMethod.Post, "/ingest/event") { Content = new StringContent(SamplePayloads.Classic, System.Text.Encoding.UTF8, "application/json") };
        request.Headers.Add("X-Api-Key", "client-two");
        using var withKey = await flow.Client.SendAsync(request);
        using var health = await flow.Client.GetAsync("/healthz");

        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal(HttpStatusCode.OK, withKey.StatusCode);
        Assert.Equal(HttpStatusCode.OK, health.StatusCode);
        Assert.Equal(1, flow.Stats().Total);
    }

    [Fact]
    public async Task OperationalEndpointsCanLiveOnAPortOfTheirOwn()
    {
        var (main, management) = (BackEndFailureTests.UnusedPort(), BackEndFailureTests.UnusedPort());
        var configuration = new FlowConfiguration();
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, configuration.BackEnd());
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd,
            configuration.FrontEnd([backEnd.BaseAddress], new() { ["Management:Port"] = management.ToString(System.Globalization.CultureInfo.InvariantCulture) }),
            url: $"http://127.0.0.1:{main};http://127.0.0.1:{management}");
        using var mainClient = TestClient.Create(new Uri($"http://127.0.0.1:{main}"));
        using var managementClient = TestClient.Create(new Uri($"http://127.0.0.1:{management}"));

        using var healthOnMain = await mainClient.GetAsync("/healthz");
        using var healthOnManagement = await managementClient.GetAsync("/healthz");
        using var ingestOnManagement = await managementClient.PostEventAsync(SamplePayloads.Classic);
        using var ingestOnMain = await mainClient.PostEventAsync(SamplePayloads.Classic);

        Assert.Equal(HttpStatusCode.NotFound, healthOnMain.StatusCode);
        Assert.Equal(HttpStatusCode.OK, healthOnManagement.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, ingestOnManagement.StatusCode);
        Assert.Equal(HttpStatusCode.OK, ingestOnMain.StatusCode);
    }

    private static StringContent Forward() => new(
        """[{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}]""",
        System.Text.Encoding.UTF8,
        "application/json");
}
