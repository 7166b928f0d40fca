using System.Net;
using Ingest.Testing;
using Ingest.Testing.Browser;
using Xunit.Abstractions;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The status page as a person sees it: Debian's Chromium, driven by Playwright through its executable path (Playwright's
/// own browser download is not used), loads each style's page and reads what renders. Skipped, with the reason, on a
/// machine without Chromium (tests/test.sh installs it). One browser for the class, a context of its own for each style.
/// </summary>
public sealed class StatusPageBrowserTests(SharedChromium chromium, ITestOutputHelper output) : IClassFixture<SharedChromium>
{
    private const string Hostile =
        """{"type":"log","source":"<script>alert('source')</script>","timestamp":"2026-11-22T10:00:00Z","level":"error","message":"<img src=x onerror=alert(1)> disk full"}""";

    public static TheoryData<ApiStyle> Styles => new(Enum.GetValues<ApiStyle>());

    [ChromiumTheory]
    [MemberData(nameof(Styles))]
    public async Task ChromiumRendersThePageWithTheCountersAndClientTextAsText(ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style));
        foreach (var body in new[] { Hostile, Core.Samples.SamplePayloads.Job(1), Core.Samples.SamplePayloads.Metric(42) })
        {
            using var accepted = await flow.Client.PostEventAsync(body);
            Assert.Equal(HttpStatusCode.OK, accepted.StatusCode);
        }

        await using var context = await chromium.NewContextAsync(1100, 900);
        var page = await context.NewPageAsync();
        var dialogs = 0;
        page.Dialog += (_, dialog) =>
        {
            dialogs++;
            _ = dialog.DismissAsync();
        };

        var response = await page.GotoAsync(new Uri(flow.BackEnd.BaseAddress, "/status").ToString());
        Assert.Equal(200, response!.Status);

        Assert.Equal("Ingest back-end — status", await page.TitleAsync());
        Assert.Equal("Ingest back-end", await page.Locator("h1").InnerTextAsync());
        Assert.Equal(style == ApiStyle.Mvc ? "MVC Razor views" : "RazorSlices", await page.Locator("[data-fact=engine]").InnerTextAsync());
        Assert.Equal(style.ToString(), await page.Locator("[data-fact='config.api'] td").InnerTextAsync());
        Assert.Equal("1", await page.Locator("[data-fact='events.log'] td").InnerTextAsync());
        Assert.Equal("3", await page.Locator("[data-fact='persisted.memory'] td").InnerTextAsync());
        Assert.True(await page.Locator("section#recent table").IsVisibleAsync());

        // What the client sent shows as text: no element was made from it, no script ran.
        var rows = page.Locator("tr.event");
        Assert.Equal(3, await rows.CountAsync());
        Assert.Equal("<script>alert('source')</script>", await rows.Nth(2).Locator("td").Nth(1).InnerTextAsync());
        Assert.Equal("error: <img src=x onerror=alert(1)> disk full", await rows.Nth(2).Locator("td").Nth(3).InnerTextAsync());
        Assert.Equal(0, await page.Locator("main script, main img, main b").CountAsync());
        Assert.Equal(0, dialogs);

        var screenshot = Path.Combine(Path.GetTempPath(), $"ingest-status-{style}.png");
        await page.ScreenshotAsync(new() { Path = screenshot, FullPage = true });
        output.WriteLine($"screenshot: {screenshot}");
    }
}
