using Ingest.Lab.Catalogue;
using Ingest.Lab.Running;
using Ingest.LoadGen;
using Xunit.Abstractions;

namespace Ingest.EndToEnd.Tests;

/// <summary>
/// The worst days, on real processes: a front-end stopped mid-run, a back-end killed mid-run, ten times the
/// sustainable rate, slow clients.
/// Each load is bounded in time and sent to loopback only. One class, so xunit runs these one after another:
/// each needs the machine's cores to itself.
/// </summary>
[Collection(PublishedServices.Name)]
public sealed class ReliabilityTests(Services services, ITestOutputHelper output)
{
    private static readonly LoadSpec Classic = new("/ingest/event", PayloadKind.Classic, 16);

    [Fact]
    public async Task EveryAcknowledgedEventIsPersistedWhenTheFrontEndIsStoppedMidRun()
    {
        var (backEnd, backEndUrl) = await services.StartAsync(ServiceRole.BackEnd, ("Sinks:Default", "Null"));
        await using var _ = backEnd;
        var (frontEnd, frontEndUrl) = await services.StartAsync(ServiceRole.FrontEnd, ("Forwarding:BackEnds:0", backEndUrl.ToString().TrimEnd('/')));
        await using var __ = frontEnd;

        var (load, started) = StartLoad(frontEndUrl, TimeSpan.FromSeconds(5));
        await started;
        await Task.Delay(TimeSpan.FromSeconds(2));
        await frontEnd.StopAsync(TimeSpan.FromSeconds(30)); // SIGTERM: stop accepting, finish what is in flight, exit.
        var run = await load;

        Assert.True(frontEnd.HasExited);
        Assert.True(run.Successful > 0, "the load ran before the stop");
        Assert.True(run.ErrorCount > 0, "the stop was felt: connections were refused or closed afterwards");
        var loss = new LossCheck(run.Successful, run.Unknown, await LossCheck.ReadPersistedAsync(backEndUrl));
        Assert.True(loss.Passed, loss.Describe());
    }

    /// <summary>With the default forward (Static HttpClient) and with LoopDirect's own client, whose kept connections
    /// die with the back-end and whose connects are refused until it is back — one connection a loop, as the Fastest
    /// preset's limit makes a few: every forward is pipelined behind the others on it, so the kill fails all of them at
    /// once, and each is retried under its Idempotency-Key.</summary>
    [Theory]
    [InlineData("Static")]
    [InlineData("LoopDirect")]
    public async Task AKilledBackEndCostsQuickErrorsRecoversByItselfAndLosesNothingAcknowledged(string strategy)
    {
        (string, string)[] forward = strategy == "Static"
            ? [("Forwarding:ClientStrategy", strategy)]
            : [("Forwarding:ClientStrategy", strategy), ("Forwarding:MaxConnectionsPerServer", "1"), ("Kestrel:Transport", "LinuxEpoll"), ("Kestrel:LinuxEpoll:ApplicationSchedulingMode", "Inline")];
        // The back-end persists to NDJSON files that outlive its process, so the count spans the kill and the restart.
        const int TimeoutMs = 3_000;
        var store = Directory.CreateDirectory(Path.Combine(services.Work, $"killed-back-end-store-{strategy}")).FullName;
        (string, string)[] backEndSettings = [("Sinks:Default", "File"), ("Sinks:File:Directory", store)];
        var backEndUrl = Services.NewUrl();
        var (backEnd, _) = await services.StartAsync(ServiceRole.BackEnd, backEndUrl, backEndSettings);
        await using var killed = backEnd;
        var (frontEnd, frontEndUrl) = await services.StartAsync(ServiceRole.FrontEnd, [
            ("Forwarding:BackEnds:0", backEndUrl.ToString().TrimEnd('/')),
            ("Forwarding:TimeoutMilliseconds", $"{TimeoutMs}"), ("Forwarding:BreakerBreakSeconds", "1"), .. forward]);
        await using var front = frontEnd;

        var (load, started) = StartLoad(frontEndUrl, TimeSpan.FromSeconds(9));
        await started;
        await Task.Delay(TimeSpan.FromSeconds(2));
        // On a machine busy with other suites the first events may take longer to reach the files: the kill waits for
        // them (a little), so the test is about the kill, not about how fast the machine warms up.
        for (var waited = 0; waited < 30 && PersistedLines(store) == 0; waited++)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100));
        }

        await backEnd.KillAsync(); // SIGKILL: no graceful shutdown, as in a crash.
        var atKill = PersistedLines(store);
        await Task.Delay(TimeSpan.FromSeconds(2));
        var (restarted, _) = await services.StartAsync(ServiceRole.BackEnd, backEndUrl, backEndSettings);
        await using var back = restarted;
        var atRestart = PersistedLines(store);
        var outage = await load;
        var duringRunAfterRestart = PersistedLines(store) - atRestart;
        var after = await services.LoadAsync(frontEndUrl, Classic, TimeSpan.FromSeconds(2));
        await LossCheck.ReadPersistedAsync(backEndUrl); // waits until the back-end's count stops moving
        var persisted = PersistedLines(store);

        output.WriteLine($"outage run: {outage.Successful} acknowledged, errors {string.Join(", ", outage.Errors)}, max {outage.Latency.Max:0} ms, p99 {outage.Latency.P99:0.0} ms; " +
            $"persisted at kill {atKill}, at restart {atRestart}, after restart during the run {duringRunAfterRestart}; after: {after.Successful}; persisted {persisted}");
        var failed = outage.Errors.Where(e => e.Key is "status 502" or "status 503").Sum(e => e.Value);
        Assert.True(atKill > 0, "events were persisted before the kill");
        Assert.True(failed > 0, $"the outage was answered with 502/503: {string.Join(", ", outage.Errors)}");
        // 504 only for forwards in flight at the kill, whose answer was lost after the back-end may have persisted them.
        Assert.True(outage.Errors.Keys.All(k => k is "status 502" or "status 503" or "status 504"),
            $"only 502/503 (and 504 for forwards cut by the kill) during the outage, no client timeouts or broken connections: {string.Join(", ", outage.Errors)}");
        Assert.True(outage.Errors.GetValueOrDefault("status 504") <= Classic.Connections,
            $"at most one forward per connection was cut by the kill: {string.Join(", ", outage.Errors)}");
        Assert.True(outage.Latency.Max < TimeoutMs + 2_000,
            $"no request waited past the forwarding timeout ({TimeoutMs} ms): the slowest took {outage.Latency.Max:0} ms");
        Assert.True(duringRunAfterRestart > 0, "the front-end resumed forwarding during the run once the back-end was back");
        Assert.True(after.ErrorCount == 0 && after.Successful > 0, $"after the outage: {after.Successful} acknowledged, errors {string.Join(", ", after.Errors)}");

        // Every 2xx is persisted. Beyond them, only forwards the back-end wrote just before it was killed, whose answer
        // never came back: those end as 504 (unknown outcome), which the loss check allows. HttpClient resends a request
        // whose kept connection closed before any answer on a new connection by itself, so when that resend is refused
        // the front-end sees only the refusal (502): with Static, one such forward per connection is allowed beyond.
        // LoopDirect sees every attempt and leaves no such gap.
        var acknowledged = outage.Successful + after.Successful;
        var hidden = strategy == "Static" ? Classic.Connections : 0;
        var loss = new LossCheck(acknowledged, outage.Unknown + after.Unknown + hidden, persisted);
        Assert.True(loss.Passed, loss.Describe());
    }

    /// <summary>The classic load for <paramref name="duration"/>, and when its generator has started: the first run of
    /// the class publishes the generator, which takes longer than any fixed delay a test would wait before acting.</summary>
    private (Task<LoadRun> Run, Task Started) StartLoad(Uri frontEnd, TimeSpan duration)
    {
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        return (services.LoadAsync(frontEnd, Classic, duration, _ => started.TrySetResult()), started.Task);
    }

    /// <summary>Events in the file sink's NDJSON files: one per line.</summary>
    private static long PersistedLines(string directory) =>
        Directory.EnumerateFiles(directory, "*.ndjson").Sum(path => File.ReadAllBytes(path).Count(b => b == (byte)'\n'));

    [Fact]
    public async Task AtTenTimesTheSustainableRateTheFrontEndShedsKeepsItsMemoryAndRecovers()
    {
        // 32 forwards in flight at most, each held 20 ms by the back-end: about 1,600 requests/s sustainable.
        const int MaxInFlight = 32;
        const int BackEndDelayMs = 20;
        const double Sustainable = MaxInFlight * 1000.0 / BackEndDelayMs;
        const long ResidentBound = 400L * 1024 * 1024;
        var (backEnd, backEndUrl) = await services.StartAsync(ServiceRole.BackEnd, ("Sinks:Default", "Null"), ("Faults:DelayMilliseconds", $"{BackEndDelayMs}"));
        await using var _ = backEnd;
        var (frontEnd, frontEndUrl) = await services.StartAsync(ServiceRole.FrontEnd,
            ("Forwarding:BackEnds:0", backEndUrl.ToString().TrimEnd('/')), ("Forwarding:MaxInFlight", $"{MaxInFlight}"));
        await using var __ = frontEnd;

        await using var sampler = new ResourceSampler(new Dictionary<string, int> { ["front-end"] = frontEnd.ProcessId });
        var flood = await services.LoadAsync(frontEndUrl, Classic with { Connections = 256, Rate = Sustainable * 10 }, TimeSpan.FromSeconds(4));
        var memory = (await sampler.StopAsync())["front-end"];
        var calm = await services.LoadAsync(frontEndUrl, Classic with { Connections = 16, Rate = Sustainable / 4 }, TimeSpan.FromSeconds(3));

        Assert.True(flood.Errors.TryGetValue("status 503", out var shed) && shed > 0, $"no request was shed: {string.Join(", ", flood.Errors)}");
        Assert.True(flood.Successful > 0);
        Assert.True(memory.PeakResidentBytes < ResidentBound, $"front-end peaked at {memory.PeakResidentBytes / 1048576} MB");
        // On failure, when in the calm phase it happened (its requests a second) and what the flood left: a fresh-clone
        // CI run on a slow day once saw the calm phase shed (docs/notebook/ci-time.md#a-slower-day).
        Assert.True(calm.ErrorCount == 0,
            $"after the flood: {string.Join(", ", calm.Errors)}; the calm phase's requests a second {string.Join(" ", calm.Timeline)}; " +
            $"the flood: {flood.Successful} acknowledged, {flood.Unknown} unknown, {string.Join(", ", flood.Errors)}");
        Assert.True(calm.Successful > 0);
        var loss = new LossCheck(flood.Successful + calm.Successful, flood.Unknown + calm.Unknown, await LossCheck.ReadPersistedAsync(backEndUrl));
        Assert.True(loss.Passed, loss.Describe());
    }

    [Fact]
    public async Task SlowClientsDoNotStopNormalOnesFromBeingServed()
    {
        var (backEnd, backEndUrl) = await services.StartAsync(ServiceRole.BackEnd, ("Sinks:Default", "Null"));
        await using var _ = backEnd;
        var (frontEnd, frontEndUrl) = await services.StartAsync(ServiceRole.FrontEnd,
            ("Forwarding:BackEnds:0", backEndUrl.ToString().TrimEnd('/')), ("Limits:RequestHeadersTimeoutSeconds", "3"));
        await using var __ = frontEnd;

        using var stop = new CancellationTokenSource();
        var slow = new List<Task>();
        for (var i = 0; i < 300; i++)
        {
            slow.Add(SlowClients.TrickleHeadersAsync(frontEndUrl, stop.Token));
        }

        for (var i = 0; i < 50; i++)
        {
            slow.Add(SlowClients.TrickleBodyAsync(frontEndUrl, stop.Token));
            slow.Add(SlowClients.NeverReadAsync(frontEndUrl, stop.Token));
        }

        await Task.Delay(TimeSpan.FromSeconds(1));
        var normal = await services.LoadAsync(frontEndUrl, Classic with { Connections = 8 }, TimeSpan.FromSeconds(4));
        await stop.CancelAsync();
        await Task.WhenAll(slow);

        Assert.True(normal.ErrorCount == 0, string.Join(", ", normal.Errors));
        Assert.True(normal.Successful > 100, $"{normal.Successful} requests served beside the slow clients");
        Assert.False(frontEnd.HasExited);
    }
}
