using System.Globalization;
using System.Text;
using Ingest.Lab.Results;

namespace Ingest.Lab.Report;

/// <summary>report.html: one self-contained page (inline CSS and SVG, no script) with every set's tables and charts.</summary>
internal static class HtmlReport
{
    private const string Style = """
        body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 960px; color: #222; }
        h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
        table { border-collapse: collapse; margin: 1em 0; font-size: 13px; } th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
        th:first-child, td:first-child { text-align: left; } th { background: #f4f4f4; }
        .failed { color: #b00; font-weight: 600; } .skipped { color: #888; } .passed { color: #282; }
        figure { margin: 1.2em 0; } figcaption { font-weight: 600; margin-bottom: .3em; }
        svg text { font: 11px system-ui, sans-serif; fill: #333; } svg .label { font-size: 12px; } svg .note { fill: #888; }
        svg .whisker { stroke: #222; stroke-width: 1; } svg .frame { fill: none; stroke: #aaa; } svg .grid { stroke: #eee; }
        svg .axis { font-size: 12px; } .meta { color: #555; } pre { background: #f7f7f7; padding: .6em; overflow-x: auto; font-size: 12px; }
        .ahead { color: #2a8a3a; font-weight: 600; } .behind { color: #c0392b; font-weight: 600; } .level { color: #555; }
        .stacks span { display: inline-block; margin-right: 1.2em; } .stacks i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
        """;

    public static string Write(RunReport report)
    {
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ingest lab run ")
            .Append(SvgChart.Escape(report.RunId)).Append("</title><style>").Append(Style).Append("</style></head><body>");
        html.Append(CultureInfo.InvariantCulture, $"<h1>Ingest lab run {SvgChart.Escape(report.RunId)}</h1>");
        Answer(html, Verdicts.Of(report.Scenarios));
        Header(html, report);
        html.Append("<p class=\"stacks\">").Append(string.Concat(Stacks.Colors.Select(c => $"<span><i style=\"background:{c.Value}\"></i>{SvgChart.Escape(c.Key)}</span>"))).Append("</p>");
        foreach (var set in report.Scenarios.GroupBy(r => r.Set))
        {
            // Rows grouped by connection count (in the set's order within each), so each group compares like with like.
            Set(html, set.Key, [.. set.OrderBy(LoadOf.Connections)]);
        }

        var problems = report.Scenarios.Where(r => r.Status != ScenarioStatus.Passed).ToList();
        if (problems.Count > 0)
        {
            html.Append("<h2>Failed and skipped</h2>");
            foreach (var r in problems)
            {
                html.Append(CultureInfo.InvariantCulture, $"<h3 class=\"{Css(r.Status)}\">{SvgChart.Escape(r.Id)}: {r.Status.ToString().ToLowerInvariant()}</h3><pre>{SvgChart.Escape(r.Reason ?? "")}</pre>");
            }
        }

        return html.Append("</body></html>").ToString();
    }

    /// <summary>The answer first: each verdict with its interval, as a table and as one chart of the ratios.</summary>
    private static void Answer(StringBuilder html, IReadOnlyList<Verdict> verdicts)
    {
        if (verdicts.Count == 0)
        {
            return;
        }

        html.Append("<h2 id=\"answer\">The answer</h2><p class=\"meta\">Each ratio is the subject's median requests per second over the baseline's, with a 95% interval from every measured repeat of every round; <b>ahead</b> or <b>behind</b> only when the whole interval is above or below 1.</p>");
        html.Append("<table class=\"verdicts\"><tr><th>verdict</th><th>connections</th><th>subject</th><th>baseline</th><th>ratio</th><th>95% interval</th><th>standing</th></tr>");
        foreach (var v in verdicts.OrderBy(v => v.Connections))
        {
            var standing = v.Standing.ToString().ToLowerInvariant();
            html.Append(CultureInfo.InvariantCulture,
                $"<tr><td>{SvgChart.Escape(v.Question)}</td><td>{v.Connections}</td><td>{SvgChart.Escape(v.Subject)}</td><td>{SvgChart.Escape(v.Baseline)}</td><td>{Format.Ratio(v.Ratio)}</td><td>{Format.Ratio(v.Lower)}–{Format.Ratio(v.Upper)}</td><td class=\"{standing}\">{standing}</td></tr>");
        }

        html.Append("</table>");
        html.Append(SvgChart.Ratios("Requests per second, subject over baseline (dot: ratio of medians; bar: 95% interval)",
            [.. verdicts.OrderBy(v => v.Connections).Select(v => ($"{v.Question} · c{v.Connections}", v.Ratio, v.Lower, v.Upper, v.Standing.ToString().ToLowerInvariant()))]));
    }

    private static void Header(StringBuilder html, RunReport report)
    {
        var m = report.Machine;
        var s = report.Settings;
        html.Append("<h2>How it was measured</h2><div class=\"meta\">");
        html.Append(CultureInfo.InvariantCulture, $"<p><code>{SvgChart.Escape(report.Command)}</code> — started {report.StartedAt:u}{(report.FinishedAt is { } f ? $", finished {f:u}" : ", not finished")}{(report.Commit is { } commit ? $", commit {SvgChart.Escape(commit)}" : "")}</p>");
        html.Append(CultureInfo.InvariantCulture, $"<p>{SvgChart.Escape(m.CpuModel)}, {m.Cores} cores, {Format.Mb(m.MemoryBytes)}; kernel {SvgChart.Escape(m.Kernel)}; {SvgChart.Escape(m.DotNet)}; {SvgChart.Escape(m.Go ?? "no Go")}; {SvgChart.Escape(m.Wrk ?? "no wrk")}; load average at start {m.LoadAverage.ToString("0.00", CultureInfo.InvariantCulture)}.</p>");
        html.Append(CultureInfo.InvariantCulture, $"<p>{(s.Rounds > 1 ? $"{s.Rounds} interleaved rounds of " : "")}{s.Repeats} measured repeats of {s.DurationSeconds:0.#} s after {s.WarmupSeconds:0.#} s warm-up per scenario; figures are medians with (min–max). Placement: {SvgChart.Escape(s.Placement)}; {SvgChart.Escape(s.Pinning)}.</p></div>");
    }

    private static void Set(StringBuilder html, string name, List<ScenarioResult> scenarios)
    {
        html.Append(CultureInfo.InvariantCulture, $"<h2>{SvgChart.Escape(name)}</h2>");
        Table(html, scenarios);
        PrometheusView(html, scenarios);

        var measured = scenarios.Where(r => r.Summary is not null).ToList();
        html.Append(SvgChart.Bars("Requests per second (median, whiskers min–max), coloured by stack", "rps",
            [.. scenarios.Select(r => (r.Name, r.Summary?.RequestsPerSecond.Median ?? double.NaN, r.Summary?.RequestsPerSecond.Min ?? double.NaN, r.Summary?.RequestsPerSecond.Max ?? double.NaN, r.Summary is null ? r.Status.ToString().ToLowerInvariant() : null))],
            [.. scenarios.Select(Stacks.Color)]));
        html.Append(SvgChart.Bars("p99 latency (median, whiskers min–max)", "ms",
            [.. measured.Select(r => (r.Name, r.Summary!.P99.Median, r.Summary.P99.Min, r.Summary.P99.Max, (string?)null))],
            [.. measured.Select(Stacks.Color)]));
        html.Append(SvgChart.Lines("Latency by percentile (first measured repeat)", "percentile", "latency (ms)",
            [.. measured.Select(r => (r.Name, PercentileCurve(r)))], logX: true, logY: true, xTick: PercentileLabel));

        var processes = measured.SelectMany(r => r.Summary!.Processes.Keys).Distinct().Order(StringComparer.Ordinal).ToList();
        html.Append(SvgChart.Bars("Peak resident memory per process (median of the repeats' peaks)", "MB",
            [.. measured.SelectMany(r => processes.Where(r.Summary!.Processes.ContainsKey).Select(p =>
            {
                var rss = r.Summary!.Processes[p].PeakResidentBytes;
                return ($"{r.Name} · {p}", rss.Median / 1048576, rss.Min / 1048576, rss.Max / 1048576, (string?)null);
            }))]));
        html.Append(SvgChart.Bars("CPU per process (cores busy, median)", "cores",
            [.. measured.SelectMany(r => processes.Where(r.Summary!.Processes.ContainsKey).Select(p =>
            {
                var cpu = r.Summary!.Processes[p].CpuCores;
                return ($"{r.Name} · {p}", cpu.Median, cpu.Min, cpu.Max, (string?)null);
            }))]));
        html.Append(SvgChart.Lines("Requests per second over time (the measured repeats, one after another)", "second", "rps",
            [.. measured.Select(r => (r.Name, Timeline(r)))]));
        html.Append(SvgChart.Lines("Front-end resident memory over time (the measured repeats)", "second", "MB",
            [.. measured.Select(r => (r.Name, MemorySeries(r, "front-end")))]));
    }

    private static void Table(StringBuilder html, List<ScenarioResult> scenarios)
    {
        html.Append("<table><tr><th>scenario</th><th>RPS (min–max)</th><th>p50</th><th>p99</th><th>max</th><th>errors</th><th>front-end CPU</th><th>front-end peak RSS</th><th>back-end peak RSS</th><th>loss check</th></tr>");
        foreach (var r in scenarios)
        {
            html.Append(CultureInfo.InvariantCulture, $"<tr><td title=\"{SvgChart.Escape(r.Title + " — " + string.Join("; ", r.Configuration.Select(c => $"{c.Key}: {c.Value}")))}\">{SvgChart.Escape(r.Name)}</td>");
            if (r.Summary is not { } s)
            {
                html.Append(CultureInfo.InvariantCulture, $"<td colspan=\"9\" class=\"{Css(r.Status)}\">{r.Status.ToString().ToLowerInvariant()}: {SvgChart.Escape((r.Reason ?? "").Split('\n')[0])}</td></tr>");
                continue;
            }

            var loss = r.Loss is { } l ? $"<span class=\"{(l.Passed ? "passed" : "failed")}\" title=\"{SvgChart.Escape(l.Describe())}\">{(l.Passed ? "passed" : "FAILED")}</span>" : "n/a";
            html.Append(CultureInfo.InvariantCulture,
                $"<td>{Format.RpsSpread(s.RequestsPerSecond)}</td><td>{Format.Ms(s.P50.Median)}</td><td>{Format.MsSpread(s.P99)}</td><td>{Format.Ms(s.Max.Median)}</td><td>{s.Errors}</td><td>{SummaryWriter.Cpu(s, "front-end")}</td><td>{SummaryWriter.Rss(s, "front-end")}</td><td>{SummaryWriter.Rss(s, "back-end")}</td><td>{loss}</td></tr>");
        }

        html.Append("</table>");
    }

    /// <summary>The services' own view, from Prometheus scraping their /metrics during the measured repeats.</summary>
    private static void PrometheusView(StringBuilder html, List<ScenarioResult> scenarios)
    {
        var rows = scenarios.Where(r => r.Prometheus is not null).SelectMany(r => r.Prometheus!.Select(p => (r.Name, Service: p.Key, Figures: p.Value))).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        html.Append("<h3>As Prometheus saw it</h3><p class=\"meta\">Scraped once a second from each service's /metrics over the measured repeats; p99 is <code>histogram_quantile</code> over the request-duration buckets, so no finer than the bucket bounds.</p>");
        html.Append("<table><tr><th>scenario</th><th>service</th><th>RPS</th><th>p99</th><th>CPU (cores)</th><th>peak working set</th><th>GCs</th></tr>");
        foreach (var (scenario, service, f) in rows)
        {
            html.Append(CultureInfo.InvariantCulture,
                $"<tr><td>{SvgChart.Escape(scenario)}</td><td>{SvgChart.Escape(service)}</td><td>{Number(f.RequestsPerSecond, "0")}</td><td>{(f.P99Ms is { } p ? Format.Ms(p) : "-")}</td><td>{Number(f.CpuCores, "0.00")}</td><td>{(f.PeakWorkingSetBytes is { } ws ? Format.Mb(ws) : "-")}</td><td>{Number(f.GcCollections, "0")}</td></tr>");
        }

        html.Append("</table>");
        html.Append(SvgChart.Bars("Prometheus: requests per second per service (rate over the measured repeats)", "rps",
            [.. rows.Select(r => ($"{r.Name} · {r.Service}", r.Figures.RequestsPerSecond ?? double.NaN, r.Figures.RequestsPerSecond ?? double.NaN, r.Figures.RequestsPerSecond ?? double.NaN, r.Figures.RequestsPerSecond is null ? "no data" : (string?)null))]));
    }

    private static string Number(double? value, string format) => value is { } v ? v.ToString(format, CultureInfo.InvariantCulture) : "-";

    // x = 1 / (1 - p): 90% -> 10, 99% -> 100, 99.9% -> 1000, so the tail gets room on a log axis.
    private static List<double[]> PercentileCurve(ScenarioResult r) =>
        [.. ((r.Runs.Count > 0 ? r.Runs[0].Latency.Curve : null) ?? []).Where(p => p[0] < 100).Select(p => new[] { 1 / (1 - (p[0] / 100)), p[1] })];

    private static string PercentileLabel(double x) => (100 * (1 - (1 / x))).ToString(x < 10 ? "0" : x < 100 ? "0.#" : "0.##", CultureInfo.InvariantCulture) + "%";

    private static List<double[]> Timeline(ScenarioResult r)
    {
        var points = new List<double[]>();
        foreach (var run in r.Runs)
        {
            foreach (var count in run.Timeline)
            {
                points.Add([points.Count + 1, count]);
            }
        }

        return points;
    }

    private static List<double[]> MemorySeries(ScenarioResult r, string process)
    {
        var points = new List<double[]>();
        double offset = 0;
        foreach (var run in r.Runs)
        {
            if (!run.Processes.TryGetValue(process, out var usage) || usage.Series.Count == 0)
            {
                continue;
            }

            points.AddRange(usage.Series.Select(p => new[] { offset + p[0], p[2] / 1048576 }));
            offset += usage.Series[^1][0];
        }

        return points;
    }

    private static string Css(ScenarioStatus status) => status.ToString().ToLowerInvariant();
}
