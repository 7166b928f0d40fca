using System.Globalization;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Results;
using Ingest.Lab.Running;

namespace Ingest.Lab;

/// <summary>
/// <c>run</c>: every scenario of the chosen sets, one after another, each with its own processes; results
/// written after every scenario, so an interrupted run keeps what it measured. The programs are published by
/// <paramref name="publisher"/> when one is given (the tests share one across runs), else once for this run.
/// </summary>
internal sealed class RunCommand(RepositoryLayout layout, TextWriter output, Publisher? publisher = null)
{
    public async Task<int> RunAsync(LabOptions options, string commandLine, CancellationToken cancellationToken)
    {
        IReadOnlyList<Scenario> scenarios = [.. options.Sets.SelectMany(ScenarioCatalogue.InSet)
            .Where(s => options.Filter is null || options.Filter.Split(',').Any(f => Matches(s.Name, f)))
            .Select(options.Configure)];
        if (options.Smoke)
        {
            scenarios = StartUpSignature.OnePerSignature(scenarios);
        }

        if (scenarios.Count == 0)
        {
            output.WriteLine($"No scenario in {string.Join(", ", options.Sets)} matches '{options.Filter}'.");
            return 2;
        }

        var limitsOrFit = options.FitMemory ? options.Limits.WithMemory(ServiceLimits.MinimumMemoryBytes) : options.Limits;
        if (!limitsOrFit.IsNone && ServiceCgroup.Unavailable(limitsOrFit) is { } noLimits)
        {
            output.WriteLine($"Cannot apply limits here: {noLimits}.");
            return 2;
        }

        var startedAt = DateTimeOffset.UtcNow;
        var runId = startedAt.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        var folder = Path.Combine(options.Output ?? layout.Results, runId);
        Directory.CreateDirectory(folder);
        output.WriteLine($"Ingest lab{(options.Smoke ? " smoke (one scenario per way of starting)" : "")}: {scenarios.Count} scenarios ({string.Join(", ", options.Sets)}), {(options.Rounds > 1 ? $"{options.Rounds} interleaved rounds of " : "")}{options.Repeats} x {options.Duration.TotalSeconds:0.#} s each after a warm-up of {options.Warmup.TotalSeconds:0.#} s, longer while the services still get faster (at most {options.WarmupLimit.TotalSeconds:0.#} s)");
        if (options.FrontEndSettings.Count > 0)
        {
            output.WriteLine($"  every .NET front-end with {string.Join(", ", options.FrontEndSettings.Select(s => $"{s.Key}={s.Value}"))} (--front-end)");
        }

        output.WriteLine($"  results: {folder}");

        if (options.Install)
        {
            await Toolchain.EnsureAsync(layout, Toolchain.PackagesFor(scenarios, options.Prometheus), output, cancellationToken);
        }

        if (options.Prometheus && await MachineInfo.FirstLineAsync("sh", ["-c", "command -v prometheus"], cancellationToken) is null)
        {
            output.WriteLine($"  no Prometheus view: prometheus is not installed (Debian package {PrometheusServer.Package})");
            options = options with { Prometheus = false };
        }

        var machine = await MachineInfo.ReadAsync(cancellationToken);
        var commit = await MachineInfo.CommitAsync(layout.Root, cancellationToken);
        var pinning = Pinning.For(options.Pin, machine.Cores);
        output.WriteLine($"  {machine.CpuModel}, {machine.Cores} cores; {pinning.Describe()}");

        var artifacts = new Artifacts(layout, publisher ?? new Publisher(layout, output), output, checksOnly: options.Smoke);
        var loadGenerator = new LoadGenDriver(artifacts.LoadGeneratorAsync);
        ILoadDriver? wrk = null;
        if (options.Wrk)
        {
            var wrkDriver = new WrkDriver();
            var missing = await wrkDriver.UnavailableAsync(cancellationToken);
            if (missing is null)
            {
                wrk = wrkDriver;
            }
            else
            {
                output.WriteLine($"  no wrk cross-check: {missing}");
            }
        }

        await artifacts.PrepareAsync(scenarios, cancellationToken);
        var runner = new ScenarioRunner(artifacts, loadGenerator, wrk, options, pinning, folder);
        var settings = new RunSettings(
            options.Sets,
            options.Repeats,
            options.Warmup.TotalSeconds,
            options.WarmupLimit.TotalSeconds,
            options.Duration.TotalSeconds,
            pinning.Describe(),
            wrk is not null,
            $"the load generator, the front-end(s) and the back-end share this machine's {machine.Cores} cores"
            + (options.Limits.IsNone && !options.FitMemory ? "" : $"; every front-end and back-end runs in cgroups of its own (cgroup v1), limits {options.Limits.Describe()}{(options.FitMemory ? ", memory searched per scenario (--fit-memory)" : "")}"),
            options.Rounds);
        var results = new List<ScenarioResult>();
        RunReport Report(DateTimeOffset? finished) => new()
        {
            RunId = runId,
            StartedAt = startedAt,
            FinishedAt = finished,
            Command = commandLine,
            Machine = machine,
            Settings = settings,
            Commit = commit,
            Scenarios = results,
        };

        // Round after round over the whole list (--rounds): a scenario's rounds are folded into one result. With
        // KeepServices (the headline's plan) each scenario's services stay up from its first round to the last.
        var keep = options.KeepServices && options.Rounds > 1 && !options.FitMemory;
        var started = new StartedScenario?[scenarios.Count];
        var clock = new RunClock(scenarios, options);
        try
        {
            for (var round = 1; round <= options.Rounds; round++)
            {
                for (var i = 0; i < scenarios.Count; i++)
                {
                    var scenario = scenarios[i];
                    var prefix = options.Rounds > 1 ? $"[round {round}/{options.Rounds}, {i + 1}/{scenarios.Count}] {scenario.Id}" : $"[{i + 1}/{scenarios.Count}] {scenario.Id}";
                    output.WriteLine($"{prefix}: {scenario.Title} ({clock.Describe(round, i)})");
                    void Progress(string step) => output.WriteLine($"      {step}");
                    var took = System.Diagnostics.Stopwatch.StartNew();
                    ScenarioResult result;
                    if (keep)
                    {
                        if (round > 1 && started[i] is null)
                        {
                            output.WriteLine("      not measured again: it did not start or failed in an earlier round");
                            continue;
                        }

                        if (round == 1)
                        {
                            (started[i], var ended) = await runner.StartAsync(scenario, options.Limits, Progress, cancellationToken);
                            result = ended ?? await runner.MeasureAsync(started[i]!, Progress, cancellationToken);
                        }
                        else
                        {
                            result = await runner.MeasureAsync(started[i]!, Progress, cancellationToken);
                        }

                        if (result.Status != ScenarioStatus.Passed && started[i] is { } broken)
                        {
                            await broken.DisposeAsync();
                            started[i] = null;
                        }
                    }
                    else
                    {
                        // With --fit-memory the scenario's own row is measured without a memory limit (the CPU limit kept): the
                        // throughput every probe of the search must keep.
                        var limits = options.FitMemory ? options.Limits.WithMemory(null) : options.Limits;
                        result = await runner.RunAsync(scenario, limits, Progress, cancellationToken);
                        if (options.FitMemory)
                        {
                            result = result with
                            {
                                MemoryFit = await MemoryFitSearch.SearchAsync(result, limits, l => runner.RunAsync(scenario, l, Progress, cancellationToken), Progress),
                            };
                        }
                    }

                    clock.Record(round, took.Elapsed);
                    output.WriteLine("      " + Line(result));
                    if (round == 1)
                    {
                        results.Add(result);
                    }
                    else
                    {
                        results[i] = ScenarioRounds.Merge(results[i], result, round);
                        output.WriteLine($"      rounds 1-{round}: " + Line(results[i]));
                    }

                    ResultFiles.WriteAll(folder, Report(null));
                }
            }
        }
        finally
        {
            foreach (var kept in started)
            {
                if (kept is not null)
                {
                    await kept.DisposeAsync();
                }
            }
        }

        ResultFiles.WriteAll(folder, Report(DateTimeOffset.UtcNow));
        output.WriteLine();
        output.Write(FinalTable(results));
        var verdicts = Verdicts.Of(results);
        if (verdicts.Count > 0)
        {
            output.WriteLine();
            output.Write(Verdicts.Table(verdicts));
        }

        output.WriteLine();
        output.WriteLine($"Written: {Path.Combine(folder, ResultFiles.ResultsJson)}, {ResultFiles.SummaryMarkdown}, {ResultFiles.ReportHtml}"
            + (File.Exists(Path.Combine(folder, ResultFiles.HeadlineJson)) ? $", {ResultFiles.HeadlineJson}" : "") + $" ({clock.Describe(options.Rounds, scenarios.Count)})");
        var failed = results.Count(r => r.Status == ScenarioStatus.Failed);
        if (failed > 0)
        {
            output.WriteLine($"{failed} scenario(s) FAILED: see the reasons above and in {ResultFiles.SummaryMarkdown}.");
        }

        return failed == 0 ? 0 : 1;
    }

    /// <summary>A filter matches a name that contains it, or with a leading '=' only that name.</summary>
    private static bool Matches(string name, string filter) =>
        filter.StartsWith('=') ? name.Equals(filter[1..], StringComparison.OrdinalIgnoreCase) : name.Contains(filter, StringComparison.OrdinalIgnoreCase);

    private static string Line(ScenarioResult r) => r.Summary is { } s && r.Status != ScenarioStatus.Skipped
        ? $"{Format.RpsSpread(s.RequestsPerSecond)} rps, p50 {Format.Ms(s.P50.Median)}, p99 {Format.Ms(s.P99.Median)}, errors {s.Errors}, front-end {SummaryWriter.Cpu(s, "front-end")} cores {SummaryWriter.Rss(s, "front-end")}; {(r.Status == ScenarioStatus.Passed ? r.Reason ?? "no loss check (no back-end that counts)" : "FAILED: " + r.Reason?.Split('\n')[0])}"
        : $"{r.Status.ToString().ToUpperInvariant()}: {r.Reason}";

    private static string FinalTable(List<ScenarioResult> results)
    {
        var table = new System.Text.StringBuilder();
        table.AppendLine($"{"scenario",-44} {"RPS (min-max)",-28} {"p50",-10} {"p99",-10} {"FE RSS",-8} {"status"}");
        foreach (var r in results)
        {
            var s = r.Summary;
            table.AppendLine($"{r.Id,-44} {(s is null ? "-" : Format.RpsSpread(s.RequestsPerSecond)),-28} {(s is null ? "-" : Format.Ms(s.P50.Median)),-10} {(s is null ? "-" : Format.Ms(s.P99.Median)),-10} {(s is null ? "-" : SummaryWriter.Rss(s, "front-end")),-8} {r.Status.ToString().ToLowerInvariant()}");
        }

        return table.ToString();
    }
}
