using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>The soak's per-second probe and its reading of a tail, on recorded input: no process is started.</summary>
public sealed class SoakProbeTests
{
    [Fact]
    public void GoGcTraceGivesTheTwoStopTheWorldPhasesOfACollection()
    {
        Assert.True(GoGcTrace.TryPauseMilliseconds("gc 12 @3.456s 1%: 0.020+0.50+0.010 ms clock, 0.041+0.20/0.31/0+0.021 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P", out var pause));
        Assert.Equal(0.030, pause, 6);
        Assert.False(GoGcTrace.TryPauseMilliseconds("Application started.", out _));
        Assert.False(GoGcTrace.TryPauseMilliseconds("scvg: 0 MB released", out _));
    }

    [Fact]
    public void RuntimeCountersAreReadFromTheServicesPrometheusPage()
    {
        const string page = """
            # TYPE dotnet_gc_pause_time_seconds_total counter
            dotnet_gc_pause_time_seconds_total 0.25
            dotnet_gc_collections_total{gc_heap_generation="gen0"} 40
            dotnet_gc_collections_total{gc_heap_generation="gen1"} 4
            dotnet_gc_collections_total{gc_heap_generation="gen2"} 1
            dotnet_gc_heap_total_allocated_bytes_total 123456789
            dotnet_thread_pool_thread_count 9
            dotnet_thread_pool_queue_length 0
            dotnet_timer_count 17
            http_server_request_duration_seconds_count{http_route="/ingest/event"} 1000
            """;

        var counters = RuntimeCounters.Parse(page);

        // No exceptions series on a page with the runtime's figures: none thrown yet (the runtime writes it with the first).
        Assert.Equal(new RuntimeCounters(0.25, 45, 4, 1, 123456789, 9, 0, 17, Exceptions: 0), counters);
        Assert.Equal(new RuntimeCounters(null, null, null, null, null, null, null, null), RuntimeCounters.Parse("# nothing here\n"));
    }

    [Fact]
    public void ASlowSecondIsPutDownToWhatTheProbeSawInIt()
    {
        static SoakSecond Second(int at, double maxMs, double other = 0, double steal = 0, double? pauseMs = 0, double? poolThreads = 8) =>
            new(at, 1.9, steal, other, 2.0, 0.3, [new SoakProcessSecond("front-end", 0.8, 20, pauseMs, 1, 0, poolThreads, 0, 10)]) { Requests = 20_000, MaxLatencyMs = maxMs };

        Assert.StartsWith("GC pause (front-end", SoakTail.Cause(Second(5, 90, pauseMs: 60), null), StringComparison.Ordinal);
        Assert.Equal("other processes on the machine", SoakTail.Cause(Second(5, 500, other: 0.9), null));
        Assert.Equal("the hypervisor (CPU steal)", SoakTail.Cause(Second(5, 500, steal: 0.5), null));
        Assert.StartsWith("thread-pool injection (front-end, 8 -> 12", SoakTail.Cause(Second(5, 300, poolThreads: 12), Second(4, 2)), StringComparison.Ordinal);
        Assert.Equal("not explained by these series", SoakTail.Cause(Second(5, 300), Second(4, 2)));

        var seconds = new[] { Second(0, 3), Second(1, 575, other: 0.8), Second(2, 4) };
        var explained = SoakTail.Explain(seconds);
        Assert.Contains("second 1: slowest", explained, StringComparison.Ordinal);
        Assert.DoesNotContain("second 0", explained, StringComparison.Ordinal); // below the notable threshold
        Assert.Contains("no second had", SoakTail.Explain([Second(0, 3)]), StringComparison.Ordinal);
        Assert.Contains("not the soak's alone", SoakTail.Machine(seconds), StringComparison.Ordinal);
        Assert.Empty(SoakTail.Machine([Second(0, 3), Second(2, 4)]));
    }

    [Fact]
    public void TheSoakRunsAgainstEveryPeerUnlessToldOtherwise()
    {
        Assert.Equal(["go-nethttp", "go-fasthttp", "rust-hyper"], SoakOptions.Parse(["--minutes", "1"]).Options!.Against);
        Assert.Equal(["go-fasthttp"], SoakCommand.ParseAgainst("go-fasthttp"));
        Assert.Equal(["rust-hyper", "go-nethttp"], SoakCommand.ParseAgainst("rust-hyper,go-nethttp"));
        Assert.Empty(SoakCommand.ParseAgainst("none")!);
        Assert.Null(SoakCommand.ParseAgainst("go-gin"));
        Assert.Equal(["Required argument missing for option: '--against'."], SoakOptions.Parse(["--against"]).Errors);
        Assert.All(SoakCommand.PeerStacks.Values, name => Assert.Contains(Catalogue.ScenarioCatalogue.InSet(Catalogue.ScenarioCatalogue.HeadlineSet), s => s.Name == name));
    }
}
