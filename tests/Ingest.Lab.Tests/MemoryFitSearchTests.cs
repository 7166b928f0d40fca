using Ingest.Lab.Results;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>The memory-fit search on a scripted scenario: it closes in on the smallest limit that keeps the throughput,
/// and never probes again below a limit it saw fail.</summary>
public sealed class MemoryFitSearchTests
{
    private const long Mb = 1024 * 1024;
    private const double UnlimitedRps = 10_000;

    [Theory]
    [InlineData(70)] // inside the first probe (1.25 x the 100 MB peak)
    [InlineData(200)] // above it: the upper bound doubles first
    public async Task TheSearchEndsJustAboveTheSmallestLimitThatKeepsTheThroughput(int neededMb)
    {
        var probed = new List<long>();
        var fit = await MemoryFitSearch.SearchAsync(Result(UnlimitedRps, 100 * Mb), ServiceLimits.None, limits =>
        {
            if (limits.MemoryBytes is not { } bytes)
            {
                return Task.FromResult(Result(UnlimitedRps, 100 * Mb));
            }

            probed.Add(bytes);
            return Task.FromResult(Result(bytes >= neededMb * Mb ? 0.97 * UnlimitedRps : 0.5 * UnlimitedRps, bytes));
        }, _ => { });

        var smallest = Assert.IsType<long>(fit!.SmallestBytes);
        Assert.InRange(smallest, neededMb * Mb, (neededMb * Mb) + Math.Max(4 * Mb, smallest / 16));
        Assert.Equal(probed, fit.Probes.Select(p => p.LimitBytes));
        Assert.Equal(125 * Mb, probed[0]);
        var failed = fit.Probes.Where(p => !p.Kept).Select(p => p.LimitBytes).DefaultIfEmpty(0).Max();
        Assert.All(fit.Probes.SkipWhile(p => p.LimitBytes != failed).Skip(1), p => Assert.True(p.LimitBytes > failed));
    }

    [Theory]
    [InlineData(0.9, true)] // the machine slowed: the probe's 0.93 is 1.03 of a run made right after it
    [InlineData(1.0, false)] // the machine did not: the probe is short, as it first looked
    public async Task AProbeShortOnThroughputAloneIsHeldAgainstARunWithoutTheLimitMadeRightAfterIt(double unlimitedNow, bool kept)
    {
        var runs = new List<long?>();
        var fit = await MemoryFitSearch.SearchAsync(Result(UnlimitedRps, 100 * Mb), ServiceLimits.None, limits =>
        {
            runs.Add(limits.MemoryBytes);
            return Task.FromResult(limits.MemoryBytes is null
                ? Result(unlimitedNow * UnlimitedRps, 100 * Mb)
                : Result(0.93 * UnlimitedRps, limits.MemoryBytes.Value));
        }, _ => { });

        var first = fit!.Probes[0];
        Assert.Equal(kept, first.Kept);
        Assert.Equal(unlimitedNow * UnlimitedRps, first.UnlimitedAgainRps);
        Assert.Contains("of a run without a memory limit right after", first.Outcome, StringComparison.Ordinal);
        Assert.Equal([125 * Mb, null], runs.Take(2));
    }

    [Fact]
    public async Task AProbeThatFailedOrErredIsNotRechecked()
    {
        var runs = 0;
        var fit = await MemoryFitSearch.SearchAsync(Result(UnlimitedRps, 100 * Mb), ServiceLimits.None, limits =>
        {
            runs++;
            Assert.NotNull(limits.MemoryBytes);
            return Task.FromResult(Result(UnlimitedRps, limits.MemoryBytes!.Value) with { Status = ScenarioStatus.Failed, Reason = "front-end OOM-killed" });
        }, _ => { });

        Assert.All(fit!.Probes, p => Assert.Null(p.UnlimitedAgainRps));
        Assert.Equal(fit.Probes.Count, runs);
    }

    [Fact]
    public async Task AScenarioThatFailedWithoutALimitIsNotSearched()
    {
        var failed = Result(UnlimitedRps, 100 * Mb) with { Status = ScenarioStatus.Failed };

        Assert.Null(await MemoryFitSearch.SearchAsync(failed, ServiceLimits.None, _ => throw new InvalidOperationException("no probe"), _ => { }));
    }

    private static ScenarioResult Result(double rps, long peakBytes) => new()
    {
        Set = "test",
        Name = "scripted",
        Title = "scripted",
        Configuration = new Dictionary<string, string>(),
        Status = ScenarioStatus.Passed,
        Summary = new ScenarioSummary
        {
            RequestsPerSecond = Spread.Of([rps]),
            P50 = Spread.Of([1.0]),
            P99 = Spread.Of([2.0]),
            Max = Spread.Of([3.0]),
            Errors = 0,
            Processes = new Dictionary<string, ProcessSummary>
            {
                ["front-end"] = new(Spread.Of([1.0]), Spread.Of([peakBytes]), peakBytes, peakBytes),
            },
        },
    };
}
