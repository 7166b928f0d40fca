using System.Globalization;
using System.Text;

namespace Ingest.Lab.Results;

/// <summary>summary.md: the run's setup, one table per set, ratios against each set's baseline, and what failed.</summary>
internal static class SummaryWriter
{
    public static string Write(RunReport report)
    {
        var md = new StringBuilder();
        var m = report.Machine;
        var s = report.Settings;
        md.AppendLine(CultureInfo.InvariantCulture, $"# Ingest lab run {report.RunId}");
        md.AppendLine();
        var verdicts = Verdicts.Of(report.Scenarios);
        if (verdicts.Count > 0)
        {
            // The answer first: each verdict is called from its interval (ahead or behind only when all of it is).
            md.AppendLine("## The answer");
            md.AppendLine();
            md.AppendLine("| verdict | connections | ratio of median RPS | 95% interval | standing |");
            md.AppendLine("|---|---|---|---|---|");
            foreach (var v in verdicts.OrderBy(v => v.Connections))
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"| {v.Question} ({v.Subject} / {v.Baseline}) | {v.Connections} | {Format.Ratio(v.Ratio)} | {Format.Ratio(v.Lower)}–{Format.Ratio(v.Upper)} | {v.Standing.ToString().ToLowerInvariant()} |");
            }

            md.AppendLine();
        }

        md.AppendLine(CultureInfo.InvariantCulture, $"- **Command**: `{report.Command}`{(report.Commit is { } commit ? $" at commit `{commit}`" : "")}");
        md.AppendLine(CultureInfo.InvariantCulture, $"- **Started**: {report.StartedAt:u}{(report.FinishedAt is { } f ? $", finished {f:u}" : " (running or interrupted)")}");
        md.AppendLine(CultureInfo.InvariantCulture, $"- **Machine**: {m.CpuModel}, {m.Cores} cores, {Format.Mb(m.MemoryBytes)} memory, kernel {m.Kernel}, {m.Os}");
        md.AppendLine(CultureInfo.InvariantCulture, $"- **Toolchain**: {m.DotNet} (SDK {m.DotNetSdk ?? "?"}), {m.Go ?? "Go: not installed"}, {m.Wrk ?? "wrk: not installed"}, {m.Nginx ?? "nginx: not installed"}, {m.Caddy ?? "caddy: not installed"}");
        md.AppendLine(CultureInfo.InvariantCulture, $"- **Load**: our load generator, closed loop; {(s.Rounds > 1 ? $"{s.Rounds} interleaved rounds (each scenario started afresh and warmed up in every round, round after round over the whole list) of " : "")}{s.Repeats} measured repeats of {s.DurationSeconds:0.#} s per scenario after a warm-up of at least {s.WarmupSeconds:0.#} s, continued in 2 s slices while the services still got faster (at most {s.WarmupLimitSeconds:0.#} s; each scenario's is in results.json); figures are the median with (min–max) over the repeats{(s.Rounds > 1 ? " of every round" : "")}{(s.CrossCheckWithWrk ? "; each scenario also driven by wrk for a cross-check" : "")}");
        md.AppendLine(CultureInfo.InvariantCulture, $"- **Placement**: {s.Placement}; {s.Pinning}. Load average at start: {m.LoadAverage.ToString("0.00", CultureInfo.InvariantCulture)}");
        md.AppendLine();

        foreach (var set in report.Scenarios.GroupBy(r => r.Set))
        {
            var scenarios = set.ToList();
            md.AppendLine(CultureInfo.InvariantCulture, $"## {set.Key}");
            md.AppendLine();
            md.AppendLine("| scenario | RPS | p50 | p99 | errors | front-end CPU (cores) | front-end peak RSS | back-end peak RSS | loss check |");
            md.AppendLine("|---|---|---|---|---|---|---|---|---|");
            foreach (var r in scenarios)
            {
                if (r.Summary is not { } sum)
                {
                    md.AppendLine(CultureInfo.InvariantCulture, $"| {r.Name} | {r.Status.ToString().ToLowerInvariant()} | | | | | | | {FirstLine(r.Reason)} |");
                    continue;
                }

                md.AppendLine(CultureInfo.InvariantCulture,
                    $"| {r.Name} | {Format.RpsSpread(sum.RequestsPerSecond)} | {Format.Ms(sum.P50.Median)} | {Format.MsSpread(sum.P99)} | {sum.Errors} | {Cpu(sum, "front-end")} | {Rss(sum, "front-end")} | {Rss(sum, "back-end")} | {(r.Loss is { } l ? (l.Passed ? "passed" : "**FAILED**") : "n/a")} |");
            }

            md.AppendLine();
            WriteCosts(md, scenarios);
            WriteCollectors(md, scenarios);
            WriteContainers(md, scenarios);
            WriteMemoryFits(md, scenarios);
            WriteRatios(md, scenarios);
            WriteCrossChecks(md, scenarios);
        }

        var problems = report.Scenarios.Where(r => r.Status != ScenarioStatus.Passed).ToList();
        if (problems.Count > 0)
        {
            md.AppendLine("## Failed and skipped");
            md.AppendLine();
            foreach (var r in problems)
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- **{r.Id}** ({r.Status.ToString().ToLowerInvariant()}): {FirstLine(r.Reason)}");
            }

            md.AppendLine();
        }

        md.AppendLine("Scenario titles and full configurations are in results.json and report.html.");
        return md.ToString();
    }

    private static void WriteRatios(StringBuilder md, List<ScenarioResult> scenarios)
    {
        var measured = scenarios.Where(r => r.Summary is not null).ToList();
        if (measured.Count < 2)
        {
            return;
        }

        md.AppendLine("Ratios against the baseline (Go net/http pooled at the same connections where the set has it, else the first row under the same load), medians measured in this run:");
        md.AppendLine();
        md.AppendLine("| scenario | baseline | RPS | p99 | front-end peak RSS |");
        md.AppendLine("|---|---|---|---|---|");
        foreach (var r in measured)
        {
            var baseline = Baselines.For(r, measured);
            if (baseline is null || baseline == r)
            {
                continue;
            }

            md.AppendLine(CultureInfo.InvariantCulture,
                $"| {r.Name} | {baseline.Name} | {Format.Ratio(r.Summary!.RequestsPerSecond.Median / baseline.Summary!.RequestsPerSecond.Median)} | {Format.Ratio(r.Summary.P99.Median / baseline.Summary.P99.Median)} | {Format.Ratio(PeakRss(r.Summary, "front-end") / PeakRss(baseline.Summary, "front-end"))} |");
        }

        md.AppendLine();
    }

    /// <summary>Each service's work a request, whatever its stack, side by side: where two stacks' rows differ, which
    /// process pays, and whether in the kernel or by waiting (context switches).</summary>
    private static void WriteCosts(StringBuilder md, List<ScenarioResult> scenarios)
    {
        var rows = scenarios
            .Where(r => r.Summary is { RequestsPerSecond.Median: > 0 })
            .SelectMany(r => r.Summary!.Processes.Where(p => p.Key.StartsWith("front-end", StringComparison.Ordinal) || p.Key == "back-end")
                .OrderBy(p => p.Key == "back-end").ThenBy(p => p.Key, StringComparer.Ordinal).Select(p => (Scenario: r, Service: p.Key, Process: p.Value)))
            .ToList();
        if (rows.Count == 0)
        {
            return;
        }

        md.AppendLine("Each service's cost a request, every stack (from /proc over each repeat: CPU time with the kernel's part, and the context switches of all its threads):");
        md.AppendLine();
        md.AppendLine("| scenario | service | CPU a request | kernel share | context switches a request |");
        md.AppendLine("|---|---|---|---|---|");
        foreach (var (r, service, process) in rows)
        {
            md.AppendLine(CultureInfo.InvariantCulture,
                $"| {r.Name} | {service} | {Format.Micros(process.CpuCores.Median / r.Summary!.RequestsPerSecond.Median)} | {(process.KernelShare is { } kernel ? Format.Percent(kernel.Median) : "-")} | {(process.ContextSwitchesPerRequest is { } switches ? switches.Median.ToString("0.00", CultureInfo.InvariantCulture) : "-")} |");
        }

        md.AppendLine();
    }

    private static void WriteCollectors(StringBuilder md, List<ScenarioResult> scenarios)
    {
        var rows = scenarios
            .Where(r => r.Summary is not null)
            .SelectMany(r => r.Summary!.Processes.Where(p => p.Value.Gc is not null).OrderBy(p => p.Key == "back-end").ThenBy(p => p.Key, StringComparer.Ordinal).Select(p => (Scenario: r, Service: p.Key, Process: p.Value, Gc: p.Value.Gc!)))
            .ToList();
        if (rows.Count == 0)
        {
            return;
        }

        md.AppendLine("Each .NET service's work a request, from its runtime's counters read before and after every repeat (the GC's figures are counts of the service's own work and do not drift with the machine the way RPS and CPU do; a GC setting's cost in throughput is mostly its pauses; exceptions/s counts every exception thrown, caught or not, which a steady load should not raise):");
        md.AppendLine();
        md.AppendLine("| scenario | service | CPU a request | allocated a request | GC pauses (share of the time) | exceptions/s | collections per 1,000 requests: gen0 / gen1 / gen2 |");
        md.AppendLine("|---|---|---|---|---|---|---|");
        foreach (var (r, service, process, gc) in rows)
        {
            md.AppendLine(CultureInfo.InvariantCulture,
                $"| {r.Name} | {service} | {Format.Micros(process.CpuCores.Median / r.Summary!.RequestsPerSecond.Median)} | {Format.Spreading(gc.AllocatedBytesPerRequest, Format.Bytes)} | {Format.Spreading(gc.PauseShare, Format.Share)} | {(gc.ExceptionsPerSecond is { } thrown ? Format.Spreading(thrown, Format.Count) : "-")} | {Format.Count(gc.Gen0PerThousandRequests.Median)} / {Format.Count(gc.Gen1PerThousandRequests.Median)} / {Format.Count(gc.Gen2PerThousandRequests.Median)} |");
        }

        md.AppendLine();
    }

    private static void WriteContainers(StringBuilder md, List<ScenarioResult> scenarios)
    {
        var limited = scenarios.Where(r => r.Containers.Count > 0).ToList();
        if (limited.Count == 0)
        {
            return;
        }

        md.AppendLine("Limits (`--limit`): what each service's runtime reported at start-up (.NET: Environment.ProcessorCount and the GC's TotalAvailableMemoryBytes; Go does not say) and what its memory group counted (peak charge: resident memory and page cache):");
        md.AppendLine();
        md.AppendLine("| scenario | service | limits | runtime: cpus | runtime: memory | group peak | OOM kills |");
        md.AppendLine("|---|---|---|---|---|---|---|");
        foreach (var r in limited)
        {
            foreach (var c in r.Containers)
            {
                md.AppendLine(CultureInfo.InvariantCulture,
                    $"| {r.Name} | {c.Service} | {c.Limits} | {c.RuntimeCpus?.ToString(CultureInfo.InvariantCulture) ?? "-"} | {(c.RuntimeMemoryBytes is { } m ? Format.Mb(m) : "-")} | {(c.GroupPeakBytes is { } p ? Format.Mb(p) : "-")} | {c.OomKills} |");
            }
        }

        md.AppendLine();
    }

    private static void WriteMemoryFits(StringBuilder md, List<ScenarioResult> scenarios)
    {
        var searched = scenarios.Where(r => r.MemoryFit is not null).ToList();
        if (searched.Count == 0)
        {
            return;
        }

        md.AppendLine(CultureInfo.InvariantCulture, $"Smallest memory limit per service (`--fit-memory`): at least {Format.Ratio(Running.MemoryFitSearch.KeptThroughput)} of the RPS without a memory limit, no error, nothing lost; each probe is a whole run of the scenario:");
        md.AppendLine();
        md.AppendLine("| scenario | RPS without a memory limit | smallest limit that fits | probes (limit: outcome) |");
        md.AppendLine("|---|---|---|---|");
        foreach (var r in searched)
        {
            var fit = r.MemoryFit!;
            var probes = string.Join("; ", fit.Probes.Select(p => $"{Format.Mb(p.LimitBytes)}: {(p.Kept ? "fits" : "no")}, {p.Outcome.Replace("|", "\\|", StringComparison.Ordinal)}{Groups(p)}"));
            md.AppendLine(CultureInfo.InvariantCulture,
                $"| {r.Name} | {Format.Rps(fit.UnlimitedRps)} | {(fit.SmallestBytes is { } b ? Format.Mb(b) : "none probed")} | {probes} |");
        }

        md.AppendLine();
    }

    /// <summary>" (back-end: GC 96 MB, peak 120 MB, 1 OOM kill)": what each limited service saw in a probe.</summary>
    private static string Groups(MemoryProbe probe) =>
        probe.Containers.Count == 0 ? "" : " (" + string.Join(", ", probe.Containers.Select(c =>
            $"{c.Service}: GC {(c.RuntimeMemoryBytes is { } m ? Format.Mb(m) : "-")}, peak {(c.GroupPeakBytes is { } p ? Format.Mb(p) : "-")}{(c.OomKills > 0 ? $", {c.OomKills} OOM kill(s)" : "")}")) + ")";

    private static void WriteCrossChecks(StringBuilder md, List<ScenarioResult> scenarios)
    {
        var checkedOnes = scenarios.Where(r => r.CrossCheck is not null && r.Summary is not null).ToList();
        if (checkedOnes.Count == 0)
        {
            return;
        }

        md.AppendLine("Cross-check with wrk (same services, same connections, one run after ours):");
        md.AppendLine();
        md.AppendLine("| scenario | our RPS | wrk RPS | ratio | our p50 | wrk p50 |");
        md.AppendLine("|---|---|---|---|---|---|");
        foreach (var r in checkedOnes)
        {
            var wrk = r.CrossCheck!;
            md.AppendLine(CultureInfo.InvariantCulture,
                $"| {r.Name} | {Format.Rps(r.Summary!.RequestsPerSecond.Median)} | {Format.Rps(wrk.RequestsPerSecond)} | {Format.Ratio(r.Summary.RequestsPerSecond.Median / wrk.RequestsPerSecond)} | {Format.Ms(r.Summary.P50.Median)} | {Format.Ms(wrk.Latency.P50)} |");
        }

        md.AppendLine();
    }

    internal static double PeakRss(ScenarioSummary summary, string process) =>
        summary.Processes.TryGetValue(process, out var p) ? p.PeakResidentBytes.Median : double.NaN;

    internal static string Rss(ScenarioSummary summary, string process) =>
        summary.Processes.TryGetValue(process, out var p) ? Format.Mb(p.PeakResidentBytes.Median) : "-";

    internal static string Cpu(ScenarioSummary summary, string process) =>
        summary.Processes.TryGetValue(process, out var p) ? Format.Cores(p.CpuCores.Median) : "-";

    private static string FirstLine(string? text) => text is null ? "" : text.Split('\n')[0].Replace("|", "\\|", StringComparison.Ordinal);
}
