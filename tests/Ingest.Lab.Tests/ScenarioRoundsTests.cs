using Ingest.Lab.Results;
using Ingest.LoadGen;

namespace Ingest.Lab.Tests;

/// <summary><c>--rounds N</c>: the rounds of a scenario folded into one result.</summary>
public sealed class ScenarioRoundsTests
{
    [Fact]
    public void RoundsAreParsedAndRefusedBesideAMemorySearch()
    {
        var (options, errors) = LabOptions.Parse(["--rounds", "3", "--repeat", "1"]);
        Assert.Empty(errors);
        Assert.Equal(3, options!.Rounds);
        Assert.Equal(1, new LabOptions().Rounds);

        Assert.Contains(LabOptions.Parse(["--rounds", "2", "--fit-memory"]).Errors, e => e.StartsWith("--rounds", StringComparison.Ordinal));
        Assert.Contains(LabOptions.Parse(["--rounds", "0"]).Errors, e => e.StartsWith("--rounds", StringComparison.Ordinal));
    }

    [Fact]
    public void TheRepeatsOfEveryRoundMakeOneSummaryAndTheLossChecksAddUp()
    {
        var first = MadeUp.Result(ScenarioStatus.Passed, new LossCheck(100, 2, 101), 10_000, 11_000);
        var second = MadeUp.Result(ScenarioStatus.Passed, new LossCheck(50, 0, 50), 20_000);

        var merged = ScenarioRounds.Merge(first, second, 2);

        Assert.Equal(ScenarioStatus.Passed, merged.Status);
        Assert.Equal([10_000, 11_000, 20_000], merged.Runs.Select(r => r.RequestsPerSecond));
        Assert.Equal(11_000, merged.Summary!.RequestsPerSecond.Median);
        Assert.Equal(10_000, merged.Summary.RequestsPerSecond.Min);
        Assert.Equal(20_000, merged.Summary.RequestsPerSecond.Max);
        Assert.Equal(new LossCheck(150, 2, 151), merged.Loss);
        Assert.Contains("over 2 rounds", merged.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void AFailedRoundFailsTheScenarioWhateverTheOthersDid()
    {
        var passed = MadeUp.Result(ScenarioStatus.Passed, new LossCheck(10, 0, 10), 1_000);
        var lost = MadeUp.Result(ScenarioStatus.Failed, new LossCheck(10, 0, 9), 1_000) with { Reason = "LOST 1 events" };

        var failedLater = ScenarioRounds.Merge(passed, lost, 2);
        Assert.Equal(ScenarioStatus.Failed, failedLater.Status);
        Assert.Equal("round 2: LOST 1 events", failedLater.Reason);

        // A later round that passes (and whose surplus would hide the loss in a sum) does not clear it.
        var surplus = MadeUp.Result(ScenarioStatus.Passed, new LossCheck(10, 5, 12), 1_000);
        var stillFailed = ScenarioRounds.Merge(ScenarioRounds.Merge(passed, lost, 2), surplus, 3);
        Assert.Equal(ScenarioStatus.Failed, stillFailed.Status);
        Assert.Equal("round 2: LOST 1 events", stillFailed.Reason);
        Assert.Equal(3, stillFailed.Runs.Count);
    }

    [Fact]
    public void ASkippedRoundLeavesWhatTheOthersMeasured()
    {
        var skipped = MadeUp.Result(ScenarioStatus.Skipped, null) with { Reason = "no Go" };
        var passed = MadeUp.Result(ScenarioStatus.Passed, null, 5_000);

        Assert.Same(passed, ScenarioRounds.Merge(skipped, passed, 2));
        var kept = ScenarioRounds.Merge(passed, skipped, 2);
        Assert.Equal(ScenarioStatus.Passed, kept.Status);
        Assert.Single(kept.Runs);
        Assert.Contains("round 2 skipped: no Go", kept.Reason, StringComparison.Ordinal);
    }
}
