using Ingest.Lab.Catalogue;
using Ingest.Lab.Results;
using Ingest.LoadGen;

namespace Ingest.Lab.Tests;

/// <summary>The verdicts a run ends with: a ratio of medians, its interval, and a standing called from the interval.</summary>
public sealed class VerdictTests
{
    private static readonly LossCheck Nothing = new(1, 0, 1);

    [Fact]
    public void AClearLeadIsAheadAndItsIntervalHoldsTheRatio()
    {
        var verdict = Verdict.Of("q", Row("a", 30_000, 30_500, 29_800, 30_200, 30_100, 29_900), Row("b", 20_000, 20_300, 19_900, 20_100, 20_050, 19_950), 50);

        Assert.Equal(Standing.Ahead, verdict.Standing);
        Assert.InRange(verdict.Ratio, 1.45, 1.55);
        Assert.True(verdict.Lower < verdict.Ratio && verdict.Ratio < verdict.Upper);
        Assert.True(verdict.Lower > 1);
        Assert.EndsWith("ahead", verdict.Describe(), StringComparison.Ordinal);
    }

    [Fact]
    public void OverlappingMeasurementsAreLevelEvenWhenOneMedianIsHigher()
    {
        var verdict = Verdict.Of("q", Row("a", 20_500, 19_000, 21_800, 20_900, 19_400, 21_000), Row("b", 20_000, 21_500, 19_200, 20_600, 19_800, 20_400), 50);

        Assert.Equal(Standing.Level, verdict.Standing);
        Assert.True(verdict.Lower < 1 && verdict.Upper > 1);
    }

    [Fact]
    public void AClearShortfallIsBehind()
    {
        var verdict = Verdict.Of("q", Row("a", 10_000, 10_200, 9_900, 10_100), Row("b", 20_000, 20_300, 19_900, 20_100), 300);

        Assert.Equal(Standing.Behind, verdict.Standing);
        Assert.True(verdict.Upper < 1);
    }

    [Fact]
    public void OneMeasurementGivesNoInterval()
    {
        var verdict = Verdict.Of("q", Row("a", 30_000), Row("b", 20_000, 20_100), 50);

        Assert.Equal(Standing.Undecided, verdict.Standing);
        Assert.Contains("no interval", verdict.Describe(), StringComparison.Ordinal);
    }

    [Fact]
    public void AMediansIntervalNeverReachesPastWhatWasMeasured()
    {
        // Bimodal and few: the normal approximation alone would reach below the smallest value, even below zero.
        double[] values = [8_000, 35_000, 9_000, 36_000];
        var (median, lower, upper) = Verdict.MedianInterval(values);

        Assert.InRange(median, 8_000, 36_000);
        Assert.True(lower >= 8_000 && upper <= 36_000);
    }

    [Fact]
    public void TheHeadlineSetComparesEachPairThatMattersAtBothConnectionCounts()
    {
        var comparisons = ScenarioCatalogue.ComparisonsIn(ScenarioCatalogue.HeadlineSet);
        var names = ScenarioCatalogue.InSet(ScenarioCatalogue.HeadlineSet).Select(s => s.Name).ToHashSet();

        Assert.All(comparisons, c => Assert.True(names.Contains(c.Subject) && names.Contains(c.Baseline), $"{c.Subject} / {c.Baseline}"));
        foreach (var question in new[] { "fastest .NET vs Go fasthttp", "fastest .NET vs Go net/http", "default .NET vs Go net/http" })
        {
            Assert.Equal(["aspnet-", "aspnet-"], comparisons.Where(c => c.Question == question).Select(c => c.Subject[..7]));
        }

        Assert.Contains(comparisons, c => c.Subject == "aspnet-default-c50" && c.Baseline == "aspnet-2016-c50");
    }

    [Fact]
    public void VerdictsLeaveOutAPairWhoseScenarioFailedOrWasSkipped()
    {
        IReadOnlyList<ScenarioResult> results =
        [
            Row("aspnet-fastest-c50", 30_000, 31_000, 30_500),
            Row("go-fasthttp-c50", 20_000, 20_500, 20_200),
            Row("go-nethttp-c50", 10_000, 10_100, 10_200) with { Status = ScenarioStatus.Failed },
        ];

        var verdicts = Verdicts.Of(results);

        var only = Assert.Single(verdicts);
        Assert.Equal(("fastest .NET vs Go fasthttp", 50), (only.Question, only.Connections));
        var table = Verdicts.Table(verdicts);
        Assert.Contains("fastest .NET vs Go fasthttp", table, StringComparison.Ordinal);
        Assert.Contains("c50", table, StringComparison.Ordinal);
    }

    private static ScenarioResult Row(string name, params double[] rps) =>
        MadeUp.Result(ScenarioCatalogue.HeadlineSet, name, name.StartsWith("go", StringComparison.Ordinal) ? "GoNetHttp" : "DotNet", 50, ScenarioStatus.Passed, Nothing, rps);
}
