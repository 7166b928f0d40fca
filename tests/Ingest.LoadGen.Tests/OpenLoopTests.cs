namespace Ingest.LoadGen.Tests;

/// <summary>
/// The behaviour open loop exists for: latency counted from the time a request was due, so a stalled server
/// shows in the percentiles. The assertions are bands and ratios wide enough for a busy two-core machine.
/// </summary>
public sealed class OpenLoopTests(TestServerFixture fixture) : IClassFixture<TestServerFixture>
{
    private static readonly TimeSpan StallAfter = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan Stall = TimeSpan.FromSeconds(1);

    private TestServer Server => fixture.Server;

    [Fact]
    public async Task OpenLoopMedianIsTheServersServiceTime()
    {
        var result = await LoadRunner.RunAsync(Options.Open(Server.Url("/delay"), rate: 100, seconds: 2, connections: 8));

        Assert.Equal(LoadMode.OpenLoop, result.Settings.Mode);
        Assert.Equal(0, result.Errors.Total);
        Assert.True(result.Responses > 50, $"{result.Responses} responses");
        Assert.InRange(result.Latency.P50Ms, 9, 60); // 10 ms of Task.Delay, plus timer and scheduling slack
        Assert.NotNull(result.OpenLoop);
        Assert.Equal(0, result.OpenLoop.Unsent);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public async Task ACountBoundedOpenLoopRunSendsExactlyThatManyRequests(int pipeline)
    {
        var options = Options.Open(Server.Url("/count"), rate: 2_000, seconds: 20, connections: 4);
        options.Pipeline = pipeline;
        options.MaxRequests = 300;
        var before = Server.Hits;

        var result = await LoadRunner.RunAsync(options);

        Assert.Equal(LoadStopReason.Requests, result.StopReason);
        Assert.Equal(300, result.Responses);
        Assert.Equal(300, result.OpenLoop!.Due);
        Assert.Equal(300, result.OpenLoop.SendDelay.Count);
        Assert.Equal(300, Server.Hits - before);
    }

    [Fact]
    public async Task AStallShowsInOpenLoopPercentilesButHidesFromClosedLoop()
    {
        var open = await RunWithStallAsync(Options.Open(Server.Url("/delay"), rate: 200, seconds: 4, connections: 16));
        var closed = await RunWithStallAsync(Options.Closed(Server.Url("/delay"), seconds: 4, connections: 4));

        // Open loop: every request due during the 1 s stall waited for its end, so well over 1% of all
        // requests took 500 ms or more.
        Assert.True(open.Latency.P99Ms >= 500, $"open-loop p99 {open.Latency.P99Ms} ms");
        Assert.InRange(open.Latency.P50Ms, 5, 200);

        // Closed loop: only the 4 requests in flight saw the stall (fewer than 1% of all), so its p99 stays
        // near the 10 ms service time; its max still shows the stall.
        Assert.True(closed.Latency.MaxMs >= 500, $"closed-loop max {closed.Latency.MaxMs} ms");
        Assert.True(open.Latency.P99Ms >= 5 * closed.Latency.P99Ms,
            $"open-loop p99 {open.Latency.P99Ms} ms vs closed-loop p99 {closed.Latency.P99Ms} ms");
    }

    private async Task<LoadResult> RunWithStallAsync(LoadOptions options)
    {
        var run = LoadRunner.RunAsync(options);
        await Task.Delay(StallAfter);
        Server.StallFor(Stall);
        return await run;
    }
}
