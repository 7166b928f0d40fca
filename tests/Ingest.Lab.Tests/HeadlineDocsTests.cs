using Ingest.Lab.Processes;
using Ingest.Lab.Results;

namespace Ingest.Lab.Tests;

/// <summary>
/// The README's and results.md's headline tables are what the committed summary of a measured run renders
/// (docs/headline.json, written by <c>headline &lt;run&gt;</c>): edited by hand, or left behind by a new run, they fail here.
/// </summary>
public sealed class HeadlineDocsTests
{
    private static readonly RepositoryLayout Layout = RepositoryLayout.Find();

    [Fact]
    public void EveryDocumentShowsTheHeadlineTheCommittedSummaryRenders()
    {
        var summary = HeadlineSummary.Read(Path.Combine(Layout.Root, HeadlineCommand.SummaryPath));
        foreach (var document in HeadlineCommand.Documents)
        {
            var text = File.ReadAllText(Path.Combine(Layout.Root, document));
            Assert.True(summary.Into(text, document) == text, $"{document}'s headline is not what {HeadlineCommand.SummaryPath} renders: run 'dotnet run -c Release --project benchmarks/Ingest.Lab -- headline'.");
        }
    }

    [Fact]
    public void TheCommittedSummaryIsAWholeMeasuredHeadline()
    {
        var summary = HeadlineSummary.Read(Path.Combine(Layout.Root, HeadlineCommand.SummaryPath));

        // Every row of the set, measured with an interval and its loss check passed; a verdict for every comparison.
        var names = Catalogue.ScenarioCatalogue.InSet(Catalogue.ScenarioCatalogue.HeadlineSet).Select(s => s.Name).Order();
        Assert.Equal(names, summary.Rows.Select(r => r.Name).Order());
        Assert.All(summary.Rows, r => Assert.True(r.LossCheckPassed && r.Measurements >= 2 && r.RpsLower <= r.Rps && r.Rps <= r.RpsUpper, r.Name));
        Assert.Equal(Catalogue.ScenarioCatalogue.ComparisonsIn(Catalogue.ScenarioCatalogue.HeadlineSet).Count, summary.Verdicts.Count);
        Assert.DoesNotContain("+changes", summary.Commit, StringComparison.Ordinal);
    }

    [Fact]
    public void AHandEditedTableIsCaught()
    {
        var summary = HeadlineSummary.Read(Path.Combine(Layout.Root, HeadlineCommand.SummaryPath));
        var readme = File.ReadAllText(Path.Combine(Layout.Root, "README.md"));
        var rendered = summary.Markdown();
        var firstFigure = rendered.IndexOf("| ASP.NET", StringComparison.Ordinal);
        Assert.True(firstFigure > 0);

        // One row's label changed by hand: the rendering puts it back, so the check would fail.
        var edited = readme.Replace(HeadlineRow.Label("go-nethttp"), "Go net/http, tuned", StringComparison.Ordinal);
        Assert.NotEqual(edited, summary.Into(edited, "README.md"));
    }
}
