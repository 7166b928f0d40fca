using Ingest.Lab.Results;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

public sealed class GcUsageTests
{
    private static RuntimeCounters Counters(double pause, double gen0, double gen1, double gen2, double allocated) =>
        RuntimeCounters.Parse($"""
            dotnet_gc_pause_time_seconds_total {pause}
            dotnet_gc_collections_total{"{"}gc_heap_generation="gen0"{"}"} {gen0}
            dotnet_gc_collections_total{"{"}gc_heap_generation="gen1"{"}"} {gen1}
            dotnet_gc_collections_total{"{"}gc_heap_generation="gen2"{"}"} {gen2}
            dotnet_gc_heap_total_allocated_bytes_total {allocated}
            """);

    [Fact]
    public void APhaseIsTheDifferenceBetweenTheReadingsAroundIt()
    {
        var before = Counters(pause: 0.5, gen0: 100, gen1: 10, gen2: 1, allocated: 50_000_000);
        var after = Counters(pause: 0.8, gen0: 160, gen1: 13, gen2: 1, allocated: 68_000_000);

        var gc = GcUsage.Between(before, after, seconds: 10, requests: 10_000);

        Assert.NotNull(gc);
        Assert.Equal(1800, gc.AllocatedBytesPerRequest, 6);
        Assert.Equal(0.03, gc.PauseShare, 6);
        Assert.Equal(60, gc.Gen0Collections);
        Assert.Equal(3, gc.Gen1Collections);
        Assert.Equal(0, gc.Gen2Collections);
    }

    [Fact]
    public void WithoutBothReadingsOrWithoutRequestsThereAreNoFigures()
    {
        var reading = Counters(1, 1, 1, 1, 1);
        var page = RuntimeCounters.Parse("dotnet_gc_pause_time_seconds_total 1\n"); // a page without the allocation counter

        Assert.Null(GcUsage.Between(null, reading, 10, 100));
        Assert.Null(GcUsage.Between(reading, null, 10, 100));
        Assert.Null(GcUsage.Between(page, reading, 10, 100));
        Assert.Null(GcUsage.Between(reading, reading, 10, 0));
    }

    [Fact]
    public void ExceptionsAreCountedASecondOverEveryTypeAndNoneBeforeTheFirst()
    {
        // The runtime writes dotnet_exceptions_total's first series with the first exception: until then the page has
        // the runtime's other figures only, and that means none.
        var quiet = Counters(pause: 0.5, gen0: 100, gen1: 10, gen2: 1, allocated: 50_000_000);
        var after = RuntimeCounters.Parse($$"""
            dotnet_gc_pause_time_seconds_total 0.8
            dotnet_gc_collections_total{gc_heap_generation="gen0"} 160
            dotnet_gc_collections_total{gc_heap_generation="gen1"} 13
            dotnet_gc_collections_total{gc_heap_generation="gen2"} 1
            dotnet_gc_heap_total_allocated_bytes_total 68000000
            dotnet_exceptions_total{error_type="ConnectionResetException"} 30
            dotnet_exceptions_total{error_type="OperationCanceledException"} 20
            """);

        Assert.Equal(0, quiet.Exceptions);
        Assert.Equal(50, after.Exceptions);
        Assert.Null(RuntimeCounters.Parse("go_goroutines 12\n").Exceptions);
        Assert.Equal(5, GcUsage.Between(quiet, after, seconds: 10, requests: 10_000)!.ExceptionsPerSecond);
        Assert.Equal(0, GcUsage.Between(after, after, seconds: 10, requests: 10_000)!.ExceptionsPerSecond);
    }

    [Fact]
    public void TheSummaryGivesEachServicesWorkPerRequestOverTheRepeats()
    {
        static GcUsage Gc(double allocated, double pause, double gen0) =>
            new() { AllocatedBytesPerRequest = allocated, PauseShare = pause, Gen0Collections = gen0, Gen1Collections = 0, Gen2Collections = 0 };

        var summary = GcSummary.Of([(Gc(1800, 0.02, 30), 20_000), (Gc(2000, 0.03, 40), 20_000), (Gc(1900, 0.01, 10), 10_000)]);

        Assert.NotNull(summary);
        Assert.Equal(new Spread(1900, 1800, 2000, 3), summary.AllocatedBytesPerRequest);
        Assert.Equal(0.02, summary.PauseShare.Median, 6);
        Assert.Equal(new Spread(1.5, 1, 2, 3), summary.Gen0PerThousandRequests);
        Assert.Null(summary.ExceptionsPerSecond); // results written before the counter was read
        Assert.Null(GcSummary.Of([]));

        var thrown = GcSummary.Of([(Gc(1800, 0.02, 30) with { ExceptionsPerSecond = 0 }, 20_000), (Gc(1800, 0.02, 30) with { ExceptionsPerSecond = 4 }, 20_000)]);
        Assert.Equal(new Spread(2, 0, 4, 2), thrown!.ExceptionsPerSecond);
    }

    [Fact]
    public void TheRunsSummaryGivesEachServicesExceptionsASecondBesideItsPauses()
    {
        static ProcessUsage Usage(double exceptions) => new()
        {
            CpuCores = 0.5, PeakCpuCores = 0.6, MeanResidentBytes = 1 << 26, PeakResidentBytes = 1 << 26, HighWaterResidentBytes = 1 << 26,
            FinalResidentBytes = 1 << 26, Samples = 3, Series = [],
            Gc = new() { AllocatedBytesPerRequest = 1800, PauseShare = 0.01, Gen0Collections = 3, Gen1Collections = 0, Gen2Collections = 0, ExceptionsPerSecond = exceptions },
        };
        var row = MadeUp.Result(ScenarioStatus.Passed, null, 1_000, 1_000);
        List<LoadRun> runs = [.. row.Runs.Select(r => r with { Processes = new Dictionary<string, ProcessUsage> { ["front-end"] = Usage(0), ["back-end"] = Usage(2.5) } })];

        var lines = SummaryWriter.Write(MadeUp.Report([row with { Runs = runs, Summary = ScenarioSummary.From(runs) }])).Split('\n');

        var header = Array.Find(lines, l => l.Contains("| GC pauses (share of the time) |", StringComparison.Ordinal))!;
        var column = Array.IndexOf(header.Split('|'), " exceptions/s ");
        Assert.True(column > 0, header);
        Assert.Equal(" 0 ", Array.Find(lines, l => l.StartsWith("| row | front-end |", StringComparison.Ordinal) && l.Contains("1.0%", StringComparison.Ordinal))!.Split('|')[column]);
        Assert.Equal(" 2.5 ", Array.Find(lines, l => l.StartsWith("| row | back-end |", StringComparison.Ordinal) && l.Contains("1.0%", StringComparison.Ordinal))!.Split('|')[column]);
    }
}
