using Ingest.Lab.Catalogue;
using Ingest.Lab.Report;
using Ingest.Lab.Results;
using Ingest.LoadGen;
using Ingest.Testing.Browser;
using Microsoft.Playwright;

namespace Ingest.Lab.Tests;

/// <summary>
/// report.html as a person sees it, in Debian's Chromium: the answer comes first (the verdicts and their chart, before how
/// the run was measured), bars are coloured by stack, and each set's rows are grouped by connection count. The run is
/// made up (no service starts): what is checked is the page, not the figures.
/// </summary>
public sealed class ReportBrowserTests(SharedChromium chromium) : IClassFixture<SharedChromium>
{
    private static readonly LossCheck Nothing = new(1, 0, 1);

    /// <summary>The fastest .NET rows, c50 then c300, that each made-up run starts with.</summary>
    private static readonly ScenarioResult[] Fastest =
    [
        Row("aspnet-fastest-c50", "DotNet", 50, 30_000, 30_500, 29_800, 30_200),
        Row("aspnet-fastest-c300", "DotNet", 300, 28_000, 28_400, 27_900, 28_100),
    ];

    [ChromiumFact]
    public async Task TheReportOpensWithTheVerdictsAndColoursEachStackAlike()
    {
        // In catalogue order the c300 row comes between two c50 rows; the report groups them.
        await using var context = await chromium.NewContextAsync(1100, 900);
        var page = await OpenAsync(context, [.. Fastest, Row("go-fasthttp-c50", "GoFastHttp", 50, 20_000, 20_300, 19_900, 20_100),
            Row("go-fasthttp-c300", "GoFastHttp", 300, 29_000, 27_000, 30_000, 28_500)]);

        // The answer first: the first section is the verdicts, above how the run was measured, and on the first screen.
        Assert.Equal("The answer", await page.Locator("h2").First.InnerTextAsync());
        var verdicts = page.Locator("table.verdicts");
        var measured = page.Locator("h2", new() { HasText = "How it was measured" });
        Assert.True((await verdicts.BoundingBoxAsync())!.Y < (await measured.BoundingBoxAsync())!.Y);
        Assert.True((await verdicts.BoundingBoxAsync())!.Y < 900);
        Assert.Equal("ahead", await verdicts.Locator("tr", new() { HasText = "aspnet-fastest-c50" }).Locator("td").Last.InnerTextAsync());
        Assert.Equal("level", await verdicts.Locator("tr", new() { HasText = "aspnet-fastest-c300" }).Locator("td").Last.InnerTextAsync());
        Assert.Equal(2, await page.Locator("figure").First.Locator("circle").CountAsync());

        // Bars by stack: both .NET rows in .NET's colour, both Go rows in Go's.
        var rpsBars = page.Locator("figure", new() { HasText = "Requests per second (median" }).Locator("rect[fill]");
        var fills = new List<string>();
        for (var i = 0; i < await rpsBars.CountAsync(); i++)
        {
            fills.Add((await rpsBars.Nth(i).GetAttributeAsync("fill"))!);
        }

        Assert.Equal([Stacks.Colors[".NET"], Stacks.Colors["Go"], Stacks.Colors[".NET"], Stacks.Colors["Go"]], fills);

        // Grouped by connections: the set's table lists both c50 rows, then both c300 rows.
        var names = await page.Locator("h2:has-text('headline') + table tr td:first-child").AllInnerTextsAsync();
        Assert.Equal(["aspnet-fastest-c50", "go-fasthttp-c50", "aspnet-fastest-c300", "go-fasthttp-c300"], names);
    }

    [ChromiumFact]
    public async Task EveryChartsLabelsFitInsideTheChart()
    {
        // The floor's verdict has the longest label of the headline: "fastest .NET against the floor (nginx to nginx) · c300".
        await using var context = await chromium.NewContextAsync(1100, 900);
        var page = await OpenAsync(context, [.. Fastest, Row("floor-nginx-c50", "Nginx", 50, 25_000, 25_400, 24_800, 25_100),
            Row("floor-nginx-c300", "Nginx", 300, 24_000, 24_400, 23_800, 24_100)]);

        var charts = page.Locator("figure svg");
        Assert.True(await charts.CountAsync() > 1);
        var labels = 0;
        for (var c = 0; c < await charts.CountAsync(); c++)
        {
            var chart = (await charts.Nth(c).BoundingBoxAsync())!;
            var texts = charts.Nth(c).Locator("text.label");
            for (var t = 0; t < await texts.CountAsync(); t++)
            {
                var box = (await texts.Nth(t).BoundingBoxAsync())!;
                Assert.True(box.X >= chart.X && box.X + box.Width <= chart.X + chart.Width,
                    $"chart {c}: '{await texts.Nth(t).TextContentAsync()}' spans {box.X:0}–{box.X + box.Width:0}, the chart {chart.X:0}–{chart.X + chart.Width:0}");
                labels++;
            }
        }

        Assert.Contains("fastest .NET against the floor (nginx to nginx) · c300", await page.Locator("figure svg text.label").AllTextContentsAsync());
        Assert.True(labels > 4);
    }

    // The report of a made-up run of the scenarios, written to a file and opened in a page of the context.
    private static async Task<IPage> OpenAsync(IBrowserContext context, IReadOnlyList<ScenarioResult> scenarios)
    {
        var file = Path.Combine(Directory.CreateTempSubdirectory("ingest-report-").FullName, "report.html");
        await File.WriteAllTextAsync(file, HtmlReport.Write(MadeUp.Report(scenarios)));
        var page = await context.NewPageAsync();
        await page.GotoAsync(new Uri(file).AbsoluteUri);
        return page;
    }

    private static ScenarioResult Row(string name, string frontEnd, int connections, params double[] rps) =>
        MadeUp.Result(ScenarioCatalogue.HeadlineSet, name, frontEnd, connections, ScenarioStatus.Passed, Nothing, rps);
}
