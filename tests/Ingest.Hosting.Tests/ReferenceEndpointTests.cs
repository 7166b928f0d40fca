using System.Net;
using System.Text.Json.Nodes;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>The classic micro endpoints answer the same in every API style, with TechEmpower's headers.</summary>
public sealed class ReferenceEndpointTests
{
    public static TheoryData<ApiStyle> Styles => new(Enum.GetValues<ApiStyle>());

    [Theory]
    [MemberData(nameof(Styles))]
    public async Task FrontEndServesTheReferenceEndpoints(ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style));

        await AssertTextAsync(flow.Client, "/plaintext", "Hello, World!");
        await AssertTextAsync(flow.Client, "/api/values/5", "value");
        await AssertTextAsync(flow.Client, "/api/values/-12", "value");
        await AssertTextAsync(flow.Client, "/healthz", "Healthy");

        using var json = await flow.Client.GetAsync("/json");
        Assert.Equal(HttpStatusCode.OK, json.StatusCode);
        Assert.Equal("application/json", json.Content.Headers.ContentType?.MediaType);
        Assert.Equal("Hello, World!", (string?)JsonNode.Parse(await json.Content.ReadAsStringAsync())!["message"]);
        Assert.Equal(27, json.Content.Headers.ContentLength);
        Assert.Contains("Kestrel", json.Headers.Server.ToString(), StringComparison.Ordinal);
        Assert.NotNull(json.Headers.Date);

        foreach (var path in new[] { "/api/values/abc", "/nothing", "/ingest/data", "/ingest/stats" })
        {
            using var missing = await flow.Client.GetAsync(path);
            Assert.True(missing.StatusCode == HttpStatusCode.NotFound, $"{style} {path}: {(int)missing.StatusCode}");
            BadInputTests.AssertProblem(await missing.Content.ReadAsStringAsync(), missing.Content.Headers.ContentType?.MediaType, 404, "not-found", null, path);
        }

        // A route that exists, with a method it does not answer (MethodNotAllowedTests covers them all).
        using var wrongMethod = await flow.Client.PostAsync("/plaintext", new StringContent("x"));
        Assert.Equal(HttpStatusCode.MethodNotAllowed, wrongMethod.StatusCode);
        using var notBackEnd = await flow.Client.PostAsync("/ingest/data", new StringContent("[]", System.Text.Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.NotFound, notBackEnd.StatusCode);
    }

    [Theory]
    [MemberData(nameof(Styles))]
    public async Task BackEndServesOnlyItsOwnEndpoints(ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style));
        using var client = TestClient.Create(flow.BackEnd.BaseAddress);

        await AssertTextAsync(client, "/healthz", "Healthy");
        using var stats = await client.GetAsync("/ingest/stats");
        Assert.Equal(0, (int)JsonNode.Parse(await stats.Content.ReadAsStringAsync())!["total"]!);
        foreach (var path in new[] { "/plaintext", "/json", "/api/values/1" })
        {
            using var missing = await client.GetAsync(path);
            Assert.True(missing.StatusCode == HttpStatusCode.NotFound, $"{style} {path}: {(int)missing.StatusCode}");
        }

        using var notFrontEnd = await client.PostEventAsync(Core.Samples.SamplePayloads.Classic);
        Assert.Equal(HttpStatusCode.NotFound, notFrontEnd.StatusCode);
    }

    [Fact]
    public async Task TheDateHeaderChangesEverySecond()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: ApiStyle.Raw));

        using var first = await flow.Client.GetAsync("/json");
        await Task.Delay(TimeSpan.FromSeconds(1.2));
        using var second = await flow.Client.GetAsync("/json");

        Assert.NotEqual(first.Headers.Date, second.Headers.Date);
    }

    private static async Task AssertTextAsync(HttpClient client, string path, string expected)
    {
        using var response = await client.GetAsync(path);
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{path}: {(int)response.StatusCode}");
        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(expected, await response.Content.ReadAsStringAsync());
        Assert.NotNull(response.Headers.Date);
        Assert.NotEmpty(response.Headers.Server);
    }
}
