using System.Net;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>The Go baseline's html/template page carries the same facts as the .NET pages after the same traffic.</summary>
public sealed class StatusPageBaselineTests
{
    private const string Log = """{"type":"log","source":"<b>api</b>","timestamp":"2026-11-22T10:00:00Z","level":"warn","message":"<script>alert(1)</script>"}""";

    public static TheoryData<ApiStyle> Styles => new(Enum.GetValues<ApiStyle>());

    [GoTheory]
    [MemberData(nameof(Styles))]
    public async Task TheGoPagesCarryTheSameCountersAndEventsAsTheDotNetPages(ApiStyle style)
    {
        // The Go back-end counts and keeps nothing: the .NET back-end's peer is the Null sink.
        await using var dotnet = await Flow.StartAsync(new FlowConfiguration(Style: style), backEndExtra: new() { ["Sinks:Default"] = "Null" });
        await using var goBack = await GoBaseline.StartAsync("-role", "backend");
        await using var goFront = await GoBaseline.StartAsync("-role", "frontend", "-backends", goBack.BaseAddress.ToString().TrimEnd('/'));
        using var goClient = TestClient.Create(goFront.BaseAddress);

        foreach (var client in new[] { dotnet.Client, goClient })
        {
            foreach (var body in new[] { Log, Core.Samples.SamplePayloads.Job(3), Core.Samples.SamplePayloads.Metric(7), "[" + Log + "," + Log + "]" })
            {
                using var accepted = await client.PostEventAsync(body);
                Assert.Equal(HttpStatusCode.OK, accepted.StatusCode);
            }

            using var rejected = await client.PostEventAsync("""{"type":"job"}""");
            Assert.Equal(HttpStatusCode.BadRequest, rejected.StatusCode);
        }

        using var dotnetBack = TestClient.Create(dotnet.BackEnd.BaseAddress);
        using var goBackClient = TestClient.Create(goBack.BaseAddress);
        var pairs = new[]
        {
            (await PageAsync(dotnet.Client, "errors.400"), await PageAsync(goClient, "errors.400")),
            (await PageAsync(dotnetBack, null), await PageAsync(goBackClient, null)),
        };

        foreach (var (dotnetPage, goPage) in pairs)
        {
            Assert.Equal("html/template", StatusPageHtml.Engine(goPage));
            var dotnetFacts = StatusPageHtml.Facts(dotnetPage);
            var goFacts = StatusPageHtml.Facts(goPage);
            Assert.Equal(dotnetFacts["config.role"], goFacts["config.role"]);
            // Counters: the same names in the same order with the same values, but for requests, which counts the
            // page's own earlier reads too.
            Assert.Equal(Counters(dotnetFacts), Counters(goFacts));
            Assert.Equal(StatusPageHtml.Events(dotnetPage).Select(e => string.Join(" | ", e)), StatusPageHtml.Events(goPage).Select(e => string.Join(" | ", e)));
        }

        Assert.Equal(5, StatusPageHtml.Events(pairs[1].Item2).Count);
    }

    private static List<string> Counters(Dictionary<string, string> facts) =>
        [.. facts.Where(f => !f.Key.StartsWith("config.", StringComparison.Ordinal)).Select(f => f.Key + "=" + (f.Key == "requests" ? "n" : f.Value))];

    // ASP.NET Core counts a request just after answering it, so the page is read until it counts the last one.
    private static async Task<string> PageAsync(HttpClient client, string? until)
    {
        for (var attempt = 0; ; attempt++)
        {
            using var response = await client.GetAsync("/status");
            var html = await response.Content.ReadAsStringAsync();
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            if (until is null || StatusPageHtml.Facts(html).ContainsKey(until) || attempt == 50)
            {
                return html;
            }

            await Task.Delay(20);
        }
    }
}

/// <summary>A theory that needs the Go baseline: skipped, with the reason, on a machine without Go.</summary>
public sealed class GoTheoryAttribute : TheoryAttribute
{
    public GoTheoryAttribute()
    {
        if (GoBaseline.MissingReason is { } reason)
        {
            Skip = reason;
        }
    }
}
