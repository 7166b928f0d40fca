using System.Globalization;
using System.Net;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// <c>GET /</c> and <c>GET /status</c> on both services in every API style: an HTML page with the configuration, the
/// counters and (back-end) the last events, rendered by the style's view engine, with whatever a client sent escaped.
/// </summary>
public sealed class StatusPageTests
{
    /// <summary>A log event whose source and message try to inject markup.</summary>
    private const string HostileLog =
        """{"type":"log","source":"<script>alert('source')</script>","timestamp":"2026-11-22T10:00:00Z","level":"warn","message":"<img src=x onerror=alert(1)> & <b>bold</b>"}""";

    public static TheoryData<ApiStyle> Styles => new(Enum.GetValues<ApiStyle>());

    [Theory]
    [MemberData(nameof(Styles))]
    public async Task BothServicesShowTheirConfigurationCountersAndEscapedEvents(ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style));
        using var backEnd = TestClient.Create(flow.BackEnd.BaseAddress);
        using (var accepted = await flow.Client.PostEventAsync(HostileLog))
        {
            Assert.Equal(HttpStatusCode.OK, accepted.StatusCode);
        }

        using (var job = await flow.Client.PostEventAsync(Core.Samples.SamplePayloads.Job(1)))
        {
            Assert.Equal(HttpStatusCode.OK, job.StatusCode);
        }

        using (var invalid = await flow.Client.PostEventAsync("""{"type":"nope"}"""))
        {
            Assert.Equal(HttpStatusCode.BadRequest, invalid.StatusCode);
        }

        var engine = style == ApiStyle.Mvc ? "MVC Razor views" : "RazorSlices";
        // ASP.NET Core records a request's duration just after the answer is sent: the page is read until it counts the 400.
        var front = await GetPageAsync(flow.Client, "/");
        for (var attempt = 0; attempt < 50 && !StatusPageHtml.Facts(front).ContainsKey("errors.400"); attempt++)
        {
            await Task.Delay(20);
            front = await GetPageAsync(flow.Client, "/");
        }

        var back = await GetPageAsync(backEnd, "/status");

        Assert.Contains("<title>Ingest front-end — status</title>", front, StringComparison.Ordinal);
        Assert.Contains("<title>Ingest back-end — status</title>", back, StringComparison.Ordinal);
        Assert.Equal(engine, StatusPageHtml.Engine(front));
        Assert.Equal(engine, StatusPageHtml.Engine(back));

        var frontFacts = StatusPageHtml.Facts(front);
        Assert.Equal("FrontEnd", frontFacts["config.role"]);
        Assert.Equal(style.ToString(), frontFacts["config.api"]);
        Assert.Equal(flow.BackEnd.BaseAddress.ToString(), frontFacts["config.backends"]);
        Assert.Equal("1", frontFacts["events.log"]);
        Assert.Equal("1", frontFacts["events.job"]);
        Assert.Equal("0", frontFacts["events.metric"]);
        Assert.Equal("2", frontFacts["forwards.ok"]);
        Assert.Equal("1", frontFacts["errors.400"]);
        Assert.True(long.Parse(frontFacts["requests"], CultureInfo.InvariantCulture) >= 3, front);

        var backFacts = StatusPageHtml.Facts(back);
        Assert.Equal("BackEnd", backFacts["config.role"]);
        Assert.Equal("job:Memory,metric:Memory,log:Memory", backFacts["config.sinks"]);
        Assert.Equal("1", backFacts["events.log"]);
        Assert.Equal("1", backFacts["events.job"]);
        Assert.Equal("2", backFacts["persisted.memory"]);
        Assert.DoesNotContain(frontFacts.Keys, k => k.StartsWith("persisted.", StringComparison.Ordinal));
        Assert.DoesNotContain(backFacts.Keys, k => k.StartsWith("forwards.", StringComparison.Ordinal));

        // Newest first; what the client sent comes back as text, never as markup.
        var events = StatusPageHtml.Events(back);
        Assert.Equal(2, events.Count);
        Assert.Equal("job", events[0][0]);
        Assert.Equal(["log", "<script>alert('source')</script>", "2026-11-22T10:00:00.0000000Z", "warn: <img src=x onerror=alert(1)> & <b>bold</b>"], events[1]);
        Assert.DoesNotContain("<script>alert", back, StringComparison.Ordinal);
        Assert.DoesNotContain("<img src=x", back, StringComparison.Ordinal);
        Assert.DoesNotContain("<b>bold", back, StringComparison.Ordinal);
        Assert.Contains("&lt;script&gt;", back, StringComparison.Ordinal);
        Assert.Empty(StatusPageHtml.Events(front));
        Assert.DoesNotContain("id=\"recent\"", front, StringComparison.Ordinal);
    }

    [Fact]
    public async Task EveryEngineRendersTheSameMarkupForTheSameFacts()
    {
        // Rendered from one model by each engine: the pages differ only where the facts do (engine, api, pid).
        var pages = new Dictionary<ApiStyle, string>();
        foreach (var style in Enum.GetValues<ApiStyle>())
        {
            await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, new FlowConfiguration(Style: style).BackEnd());
            using var client = TestClient.Create(backEnd.BaseAddress);
            using (var persisted = await client.PostAsync("/ingest/data", new StringContent(
                "[" + HostileLog.Replace("}", ""","received_at":"2026-11-22T10:00:00Z"}""", StringComparison.Ordinal) + "]",
                System.Text.Encoding.UTF8, "application/json")))
            {
                Assert.Equal(HttpStatusCode.OK, persisted.StatusCode);
            }

            pages[style] = Normalise(await GetPageAsync(client, "/status"));
        }

        Assert.Equal(pages[ApiStyle.Minimal], pages[ApiStyle.Raw]);
        Assert.Equal(pages[ApiStyle.Minimal], pages[ApiStyle.Mvc]);

        static string Normalise(string html)
        {
            html = html.Replace(StatusPageHtml.Engine(html), "ENGINE", StringComparison.Ordinal);
            foreach (var fact in new[] { "config.api", "config.pid", "requests" })
            {
                html = System.Text.RegularExpressions.Regex.Replace(html, $"""(<tr data-fact="{fact}"><th>[^<]*</th><td>)[^<]*""", "$1X");
            }

            return html;
        }
    }

    [Fact]
    public async Task MvcViewsLeaveTheIngestPathWithoutTempDatasFilter()
    {
        // Views bring a global filter that registers a response callback on every request; nothing uses TempData.
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, new FlowConfiguration(Style: ApiStyle.Mvc).BackEnd());

        var filters = backEnd.Get<Microsoft.Extensions.Options.IOptions<Microsoft.AspNetCore.Mvc.MvcOptions>>().Value.Filters;

        Assert.DoesNotContain(filters, f => f.GetType().Name == "SaveTempDataAttribute");
        Assert.NotNull(backEnd.Get<Microsoft.AspNetCore.Mvc.ViewEngines.ICompositeViewEngine>());
    }

    [Fact]
    public async Task ThePageShowsNoSecrets()
    {
        const string sharedKey = "shared-key-that-must-stay-secret";
        const string connectionString = "Host=127.0.0.1;Username=ingest;Password=pg-password-that-must-stay-secret";
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, new FlowConfiguration().BackEnd(new()
        {
            ["Security:SharedKey"] = sharedKey,
            ["Sinks:PostgreSql:ConnectionString"] = connectionString,
        }));
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, new FlowConfiguration().FrontEnd(
            [new Uri($"http://forwarder:url-password-that-must-stay-secret@127.0.0.1:{backEnd.BaseAddress.Port}/")],
            new() { ["Security:SharedKey"] = sharedKey, ["Security:ApiKeys:0"] = "api-key-that-must-stay-secret" }));

        using var backClient = TestClient.Create(backEnd.BaseAddress);
        using var frontClient = TestClient.Create(frontEnd.BaseAddress);
        var pages = await GetPageAsync(backClient, "/status") + await GetPageAsync(frontClient, "/status");

        Assert.DoesNotContain("must-stay-secret", pages, StringComparison.Ordinal);
        Assert.Contains("http://***@127.0.0.1:", pages, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WithAManagementPortThePageAnswersOnlyThere()
    {
        var (main, management) = (LoopbackPorts.Free(), LoopbackPorts.Free());
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd,
            new FlowConfiguration().BackEnd(new() { ["Management:Port"] = management.ToString(CultureInfo.InvariantCulture) }),
            url: $"http://127.0.0.1:{main};http://127.0.0.1:{management}");
        using var mainClient = TestClient.Create(new Uri($"http://127.0.0.1:{main}/"));
        using var managementClient = TestClient.Create(new Uri($"http://127.0.0.1:{management}/"));

        foreach (var path in new[] { "/", "/status" })
        {
            using var onMain = await mainClient.GetAsync(path);
            Assert.Equal(HttpStatusCode.NotFound, onMain.StatusCode);
            Assert.Contains("Ingest back-end", await GetPageAsync(managementClient, path), StringComparison.Ordinal);
        }
    }

    private static async Task<string> GetPageAsync(HttpClient client, string path)
    {
        using var response = await client.GetAsync(path);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{path}: {(int)response.StatusCode} {body}");
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("utf-8", response.Content.Headers.ContentType?.CharSet);
        Assert.StartsWith("<!DOCTYPE html>", body.TrimStart(), StringComparison.Ordinal);
        return body;
    }
}
