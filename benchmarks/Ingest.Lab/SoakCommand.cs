using System.Globalization;
using System.Text;
using System.Text.Json;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Results;
using Ingest.LoadGen;
using Ingest.Lab.Running;

namespace Ingest.Lab;

/// <summary>
/// <c>soak</c>: the default flow for a long, bounded run at a share of its measured maximum rate (open loop), with
/// resident memory, threads and open handles of both services sampled every few seconds. It answers whether the
/// service holds: zero errors, memory growth after warm-up under 10%, no growth in threads or handles, nothing lost.
/// The same soak then runs against the peers (<c>--against</c>: Go net/http, Go fasthttp and Rust hyper by default) at the
/// same rate, so latency percentiles compare at the same load; and every second of each soak is recorded (GC pauses,
/// thread-pool threads, timers, CPU of every process and of the rest of the machine, the slowest response) so that
/// a long tail explains itself (<see cref="SoakTail"/>).
/// </summary>
internal sealed class SoakCommand(RepositoryLayout layout, TextWriter output)
{
    /// <summary>The stacks <c>--against</c> accepts, by name: the headline set's peers at 50 connections (Go net/http, and
    /// the fastest pair of Go fasthttp and of Rust hyper).</summary>
    public static readonly IReadOnlyDictionary<string, string> PeerStacks = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["go-nethttp"] = "go-nethttp-c50",
        ["go-fasthttp"] = "go-fasthttp-c50",
        ["rust-hyper"] = "rust-hyper-c50",
    };

    private const string DotNetStack = "dotnet";
    private static readonly TimeSpan Every = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan ProbeEvery = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan SettleTime = TimeSpan.FromMinutes(1);
    private static readonly TimeSpan FirstWarmUp = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan WarmUpLimit = TimeSpan.FromSeconds(30);
    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    /// <summary>Soaks the .NET flow (with the lean profile, Native AOT or trimmed as <paramref name="options"/> say), then
    /// each of their <see cref="SoakOptions.Against"/> stacks at the same rate; 0 when every soak held.</summary>
    public async Task<int> RunAsync(SoakOptions options, CancellationToken cancellationToken)
    {
        var machine = await MachineInfo.ReadAsync(cancellationToken);
        var folder = Path.Combine(layout.Results, DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-soak");
        Directory.CreateDirectory(folder);
        var publisher = new Publisher(layout, output);
        var artifacts = new Artifacts(layout, publisher, output);
        var driver = new LoadGenDriver(artifacts.LoadGeneratorAsync);
        var dotNet = ScenarioCatalogue.InSet("smoke")[0] with { Load = new LoadSpec("/ingest/event", PayloadKind.Classic, 50) };
        if (options.Lean)
        {
            dotNet = EachService(dotNet, spec => spec.WithEnvironment(ScenarioCatalogue.Lean));
            output.WriteLine("Soak of the lean profile: " + string.Join(" ", ScenarioCatalogue.Lean.Select(e => $"{e.Key}={e.Value}")));
        }

        if (options.Aot)
        {
            dotNet = EachService(dotNet, spec => spec with { NativeAot = true });
            output.WriteLine("Soak of Native AOT builds of both services");
        }

        if (options.Trimmed)
        {
            dotNet = EachService(dotNet, spec => spec with { Trimmed = true });
            output.WriteLine("Soak of trimmed, self-contained JIT builds of both services");
        }

        var stacks = new List<(string Name, Scenario Scenario)> { (DotNetStack, dotNet) };
        var peers = ScenarioCatalogue.InSet(ScenarioCatalogue.HeadlineSet);
        stacks.AddRange(options.Against.Select(name => (name, peers.First(s => s.Name == PeerStacks[name]))));

        double? rate = null;
        var passed = true;
        var soaks = new List<StackSoak>();
        foreach (var (name, scenario) in stacks)
        {
            var stackFolder = Path.Combine(folder, name);
            Directory.CreateDirectory(stackFolder);
            output.WriteLine($"Soak {name}: {scenario.Title}");
            try
            {
                var soak = await SoakAsync(name, WithGoGcTrace(scenario), driver, artifacts, stackFolder, options.Minutes, options.RatePercent, rate, cancellationToken);
                rate ??= soak.Rate;
                passed &= soak.Verdict.Passed;
                soaks.Add(soak);
            }
            catch (ScenarioSkippedException ex)
            {
                output.WriteLine($"  skipped: {ex.Message}");
            }

            await File.WriteAllTextAsync(Path.Combine(folder, "soak-result.json"), JsonSerializer.Serialize(new { machine, minutes = options.Minutes, ratePercent = options.RatePercent, lean = options.Lean, rate, stacks = soaks }, Indented), cancellationToken);
        }

        output.WriteLine(Table(soaks));
        output.WriteLine(passed ? "Soak passed." : "Soak FAILED.");
        output.WriteLine($"Written: {Path.Combine(folder, "soak-result.json")}");
        return passed ? 0 : 1;
    }

    /// <summary>One stack's soak: warm up, measure its maximum, then the open-loop soak at <paramref name="fixedRate"/>
    /// (or <paramref name="ratePercent"/> of its own maximum for the first stack), with the per-second probe.</summary>
    private async Task<StackSoak> SoakAsync(string name, Scenario scenario, LoadGenDriver driver, Artifacts artifacts, string folder, double minutes, double ratePercent, double? fixedRate, CancellationToken cancellationToken)
    {
        await using var topology = await Topology.StartAsync(scenario, artifacts, Pinning.None, ServiceLimits.None, folder, cancellationToken);
        var payload = PayloadFiles.Write(folder, PayloadKind.Classic);

        output.WriteLine("  measuring the maximum rate (closed loop, 50 connections, 5 s once warm)");
        var warmup = await WarmUp.RunAsync(FirstWarmUp, WarmUpLimit, (phase, number) =>
            driver.RunAsync(new LoadPhase(topology.Target, scenario.Load, phase, null, payload, Path.Combine(folder, $"warmup-{number}.json"), null, folder), _ => { }, cancellationToken));
        output.WriteLine("  " + warmup.Describe());
        var max = await driver.RunAsync(new LoadPhase(topology.Target, scenario.Load, TimeSpan.FromSeconds(5), null, payload, Path.Combine(folder, "max.json"), null, folder), _ => { }, cancellationToken);
        var rate = fixedRate ?? Math.Round(max.RequestsPerSecond * ratePercent / 100);
        output.WriteLine(fixedRate is null
            ? $"  maximum {Format.Rps(max.RequestsPerSecond)} rps; soaking at {ratePercent}% = {Format.Rps(rate)} rps for {minutes} min"
            : $"  maximum {Format.Rps(max.RequestsPerSecond)} rps; soaking at the first stack's rate, {Format.Rps(rate)} rps ({rate / max.RequestsPerSecond:0%} of this one's maximum), for {minutes} min");

        using var probe = new SoakProbe(topology);
        await probe.StartAsync(cancellationToken);
        var samples = new List<SoakSample>();
        var seconds = new List<SoakSecond>();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var load = driver.RunAsync(
            new LoadPhase(topology.Target, scenario.Load with { Rate = rate, Connections = 128 }, TimeSpan.FromMinutes(minutes), RequestBound(rate, minutes), payload, Path.Combine(folder, "soak.json"), null, folder),
            probe.WatchLoadGenerator,
            cancellationToken);
        var nextSample = TimeSpan.Zero;
        var nextProbe = ProbeEvery;
        while (!load.IsCompleted)
        {
            if (clock.Elapsed >= nextSample)
            {
                foreach (var (process, pid) in topology.ProcessIds)
                {
                    samples.Add(new SoakSample(process, clock.Elapsed.TotalSeconds, ProcFs.ResidentBytes(pid) ?? 0, ProcFs.Threads(pid) ?? 0, ProcFs.OpenFiles(pid) ?? 0));
                }

                nextSample += Every;
            }

            var wait = nextProbe - clock.Elapsed;
            if (wait > TimeSpan.Zero)
            {
                await Task.WhenAny(load, Task.Delay(wait, cancellationToken));
            }

            if (load.IsCompleted || clock.Elapsed < nextProbe)
            {
                continue; // the run ended, or the timer fired a hair early: a probe a millisecond after the last measures nothing
            }

            // The probe taken just after second k+1 began covers second k; a starved lab skips seconds rather than
            // probing twice in a row.
            var second = (int)Math.Floor(clock.Elapsed.TotalSeconds);
            seconds.Add(await probe.SampleAsync(second - 1, cancellationToken));
            nextProbe = TimeSpan.FromSeconds(second + 1);
        }

        var run = await load;
        seconds = WithLoadFigures(seconds, run);
        var persisted = await LossCheck.ReadPersistedAsync(topology.BackEnd!, cancellationToken);
        var loss = new LossCheck(warmup.Successful + max.Successful + run.Successful, warmup.Unknown + max.Unknown + run.Unknown, persisted);
        var verdict = Verdict(samples, run, loss);
        output.WriteLine(verdict.Text);
        output.WriteLine("  the slowest seconds:");
        output.Write(SoakTail.Explain(seconds));
        output.Write(SoakTail.Machine(seconds));
        return new StackSoak(name, scenario.Title, warmup.Elapsed.TotalSeconds, max.RequestsPerSecond, rate,
            new { run.Responses, run.Successful, run.RequestsPerSecond, run.Errors, latency = run.Latency }, run.Latency, loss, samples, seconds, verdict);
    }

    /// <summary>Go's runtime writes a line per collection under GODEBUG=gctrace=1: the probe's source for Go's pauses.</summary>
    private static Scenario WithGoGcTrace(Scenario scenario) =>
        EachService(scenario, spec => spec.Implementation is Implementation.GoNetHttp or Implementation.GoFastHttp ? spec.WithEnvironment((GoGcTrace.Variable, GoGcTrace.Value)) : spec);

    /// <summary>The scenario with <paramref name="change"/> made to its front-end and to its back-end, if it has one.</summary>
    private static Scenario EachService(Scenario scenario, Func<ServiceSpec, ServiceSpec> change) =>
        scenario with { FrontEnd = change(scenario.FrontEnd), BackEnd = scenario.BackEnd is { } backEnd ? change(backEnd) : null };

    /// <summary>The load generator's own figures for each probed second (its timeline starts with the measured phase,
    /// within the fraction of a second the process takes to start after the probe's clock).</summary>
    private static List<SoakSecond> WithLoadFigures(List<SoakSecond> seconds, LoadRun run) =>
        [.. seconds.Select(s => s with
        {
            Requests = s.Second < run.Timeline.Count ? run.Timeline[s.Second] : 0,
            MaxLatencyMs = s.Second < run.TimelineMaxMs.Count ? run.TimelineMaxMs[s.Second] : 0,
        })];

    /// <summary>Latency percentiles of every soak side by side, at the same rate.</summary>
    internal static string Table(IReadOnlyList<StackSoak> soaks)
    {
        var text = new StringBuilder();
        text.AppendLine("| stack | maximum rps | soak rps | p50 | p90 | p99 | p99.9 | max | errors | verdict |");
        text.AppendLine("|---|---|---|---|---|---|---|---|---|---|");
        foreach (var s in soaks)
        {
            var l = s.Latency;
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {s.Stack} | {Format.Rps(s.MaximumRps)} | {Format.Rps(s.Rate)} | {Format.Ms(l.P50)} | {Format.Ms(l.P90)} | {Format.Ms(l.P99)} | {Format.Ms(l.P999)} | {Format.Ms(l.Max)} | {s.Verdict.Errors} | {(s.Verdict.Passed ? "holds" : "FAILED")} |");
        }

        return text.ToString();
    }

    /// <summary>The stacks <c>--against</c> names: a comma-separated list of <see cref="PeerStacks"/>, or none for
    /// <c>none</c>; null when a name is not one of them.</summary>
    internal static IReadOnlyList<string>? ParseAgainst(string text)
    {
        var names = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (names is ["none"])
        {
            return [];
        }

        return names.Length > 0 && names.All(PeerStacks.ContainsKey) ? [.. names.Distinct()] : null;
    }

    /// <summary>Enough requests for the whole duration at the rate (the load generator's default bound is 10 million,
    /// which a 10-minute soak above 16,700 rps would reach early), still a bound.</summary>
    private static long RequestBound(double rate, double minutes) => (long)(rate * minutes * 60 * 1.1) + 10_000;

    internal static SoakVerdict Verdict(List<SoakSample> samples, LoadRun run, LossCheck loss)
    {
        var text = new StringBuilder();
        var passed = run.ErrorCount == 0 && loss.Passed;
        text.AppendLine(CultureInfo.InvariantCulture, $"  {run.Responses} requests at {Format.Rps(run.RequestsPerSecond)} rps, errors {run.ErrorCount}, p99 {Format.Ms(run.Latency.P99)}; {loss.Describe()}");
        var growth = new Dictionary<string, double>();
        foreach (var process in samples.GroupBy(s => s.Process))
        {
            var settled = process.Where(s => s.AtSeconds >= SettleTime.TotalSeconds).ToList();
            if (settled.Count < 2)
            {
                text.AppendLine(CultureInfo.InvariantCulture, $"  {process.Key}: the run was shorter than the {SettleTime.TotalMinutes:0} min warm-up: no growth measured");
                continue;
            }

            var (first, last) = (settled[0], settled[^1]);
            var rss = TrendGrowth(settled);
            growth[process.Key] = rss;
            var ok = rss < 0.10 && last.Threads <= first.Threads + 2 && last.OpenFiles <= first.OpenFiles + 2;
            passed &= ok;
            text.AppendLine(CultureInfo.InvariantCulture,
                $"  {process.Key}: RSS {Format.Mb(settled.Min(s => s.ResidentBytes))}-{Format.Mb(settled.Max(s => s.ResidentBytes))} after warm-up, trend {rss:+0.0%;-0.0%} over the run, threads {first.Threads} -> {last.Threads}, handles {first.OpenFiles} -> {last.OpenFiles}: {(ok ? "holds" : "GROWS")}");
        }

        text.Append(passed ? "  holds." : "  FAILED.");
        return new SoakVerdict(passed, text.ToString(), growth) { Errors = run.ErrorCount };
    }

    /// <summary>
    /// Resident memory's growth over the samples as a share of its mean: the least-squares line's rise from the first
    /// sample's time to the last's. A garbage-collected heap saws up and down by tens of percent between collections,
    /// so comparing the first and the last sample measures where each landed in its cycle, not a leak.
    /// </summary>
    internal static double TrendGrowth(IReadOnlyList<SoakSample> samples)
    {
        var meanTime = samples.Average(s => s.AtSeconds);
        var meanRss = samples.Average(s => (double)s.ResidentBytes);
        var covariance = samples.Sum(s => (s.AtSeconds - meanTime) * (s.ResidentBytes - meanRss));
        var variance = samples.Sum(s => (s.AtSeconds - meanTime) * (s.AtSeconds - meanTime));
        var slope = variance == 0 ? 0 : covariance / variance;
        return slope * (samples[^1].AtSeconds - samples[0].AtSeconds) / meanRss;
    }
}

/// <summary>One reading of a service during a soak.</summary>
internal sealed record SoakSample(string Process, double AtSeconds, long ResidentBytes, long Threads, int OpenFiles);

/// <summary>The soak's outcome: passed or not, in words, and each service's memory growth after warm-up.</summary>
internal sealed record SoakVerdict(bool Passed, string Text, IReadOnlyDictionary<string, double> MemoryGrowth)
{
    public long Errors { get; init; }
}
