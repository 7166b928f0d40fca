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
/// </summary>
internal sealed class SoakCommand(RepositoryLayout layout, TextWriter output)
{
    private static readonly TimeSpan Every = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan SettleTime = TimeSpan.FromMinutes(1);
    private static readonly TimeSpan FirstWarmUp = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan WarmUpLimit = TimeSpan.FromSeconds(30);
    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };

    public async Task<int> RunAsync(double minutes, double ratePercent, bool lean, CancellationToken cancellationToken)
    {
        var machine = await MachineInfo.ReadAsync(cancellationToken);
        var folder = Path.Combine(layout.Results, DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-soak");
        Directory.CreateDirectory(folder);
        var publisher = new Publisher(layout, output);
        var artifacts = new Artifacts(layout, publisher, output);
        var driver = new LoadGenDriver(artifacts.LoadGeneratorAsync);
        var scenario = ScenarioCatalogue.InSet("smoke")[0] with { Load = new LoadSpec("/ingest/event", PayloadKind.Classic, 50) };
        if (lean)
        {
            scenario = scenario with { FrontEnd = scenario.FrontEnd.WithEnvironment(ScenarioCatalogue.Lean), BackEnd = scenario.BackEnd!.WithEnvironment(ScenarioCatalogue.Lean) };
            output.WriteLine("Soak of the lean profile: " + string.Join(" ", ScenarioCatalogue.Lean.Select(e => $"{e.Key}={e.Value}")));
        }

        await using var topology = await Topology.StartAsync(scenario, artifacts, Pinning.None, ServiceLimits.None, folder, cancellationToken);
        var payload = PayloadFiles.Write(folder, PayloadKind.Classic);

        output.WriteLine("Soak: measuring the maximum rate (closed loop, 50 connections, 5 s once warm)");
        var warmup = await WarmUp.RunAsync(FirstWarmUp, WarmUpLimit, (phase, number) =>
            driver.RunAsync(new LoadPhase(topology.Target, scenario.Load, phase, null, payload, Path.Combine(folder, $"warmup-{number}.json"), null, folder), _ => { }, cancellationToken));
        output.WriteLine("  " + warmup.Describe());
        var max = await driver.RunAsync(new LoadPhase(topology.Target, scenario.Load, TimeSpan.FromSeconds(5), null, payload, Path.Combine(folder, "max.json"), null, folder), _ => { }, cancellationToken);
        var rate = Math.Round(max.RequestsPerSecond * ratePercent / 100);
        output.WriteLine($"  maximum {Format.Rps(max.RequestsPerSecond)} rps; soaking at {ratePercent}% = {Format.Rps(rate)} rps for {minutes} min");

        var samples = new List<SoakSample>();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var load = driver.RunAsync(
            new LoadPhase(topology.Target, scenario.Load with { Rate = rate, Connections = 128 }, TimeSpan.FromMinutes(minutes), RequestBound(rate, minutes), payload, Path.Combine(folder, "soak.json"), null, folder),
            _ => { },
            cancellationToken);
        while (!load.IsCompleted)
        {
            foreach (var (name, pid) in topology.ProcessIds)
            {
                samples.Add(new SoakSample(name, clock.Elapsed.TotalSeconds, ProcFs.ResidentBytes(pid) ?? 0, ProcFs.Threads(pid) ?? 0, ProcFs.OpenFiles(pid) ?? 0));
            }

            await Task.WhenAny(load, Task.Delay(Every, cancellationToken));
        }

        var run = await load;
        var persisted = await LossCheck.ReadPersistedAsync(topology.BackEnd!, cancellationToken);
        var loss = new LossCheck(warmup.Successful + max.Successful + run.Successful, warmup.Unknown + max.Unknown + run.Unknown, persisted);
        var verdict = Verdict(samples, run, loss);
        var report = new
        {
            machine,
            minutes,
            ratePercent,
            lean,
            warmupSeconds = warmup.Elapsed.TotalSeconds,
            maximumRps = max.RequestsPerSecond,
            rate,
            run = new { run.Responses, run.Successful, run.RequestsPerSecond, run.Errors, latency = run.Latency },
            loss,
            samples,
            verdict,
        };
        await File.WriteAllTextAsync(Path.Combine(folder, "soak-result.json"), JsonSerializer.Serialize(report, Indented), cancellationToken);
        output.WriteLine(verdict.Text);
        output.WriteLine($"Written: {Path.Combine(folder, "soak-result.json")}");
        return verdict.Passed ? 0 : 1;
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

        text.Append(passed ? "Soak passed." : "Soak FAILED.");
        return new SoakVerdict(passed, text.ToString(), growth);
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
internal sealed record SoakVerdict(bool Passed, string Text, IReadOnlyDictionary<string, double> MemoryGrowth);
