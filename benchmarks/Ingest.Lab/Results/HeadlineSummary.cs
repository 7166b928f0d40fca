using System.Globalization;
using System.Text;
using System.Text.Json;
using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Results;

/// <summary>
/// The small record of a headline run that the repository keeps (docs/headline.json): when, at which commit, on what
/// machine, by which command, each row's median with its interval, and the verdicts. The README's and results.md's
/// headline tables are rendered from it (<see cref="Markdown"/>), and a test fails when they are not what it renders,
/// so the docs cannot drift from a measured run.
/// </summary>
internal sealed record HeadlineSummary
{
    public required DateTimeOffset Date { get; init; }

    public required string Commit { get; init; }

    public required string Machine { get; init; }

    public required string Command { get; init; }

    /// <summary>How it was measured, in words: rounds, repeats, durations.</summary>
    public required string Plan { get; init; }

    public required IReadOnlyList<HeadlineRow> Rows { get; init; }

    public required IReadOnlyList<Verdict> Verdicts { get; init; }

    /// <summary>The headline set's part of a run; null when the run has no measured headline scenario.</summary>
    public static HeadlineSummary? Of(RunReport report)
    {
        var scenarios = report.Scenarios.Where(s => s.Set == ScenarioCatalogue.HeadlineSet).ToList();
        if (scenarios.Count == 0 || scenarios.All(s => s.Runs.Count == 0))
        {
            return null;
        }

        var m = report.Machine;
        var s = report.Settings;
        return new HeadlineSummary
        {
            Date = report.FinishedAt ?? report.StartedAt,
            Commit = report.Commit ?? "unknown",
            Machine = $"{m.CpuModel}, {m.Cores} cores, {Format.Mb(m.MemoryBytes)}, kernel {m.Kernel}; {m.DotNet}, {m.Go ?? "no Go"}",
            Command = report.Command,
            Plan = $"{s.Rounds} interleaved round{(s.Rounds == 1 ? "" : "s")} of {s.Repeats} x {s.DurationSeconds:0.#} s per scenario, services kept up between rounds; load generator and services on the same {m.Cores} cores",
            Rows = [.. scenarios.Select(HeadlineRow.Of)],
            Verdicts = [.. Results.Verdicts.Of(scenarios)],
        };
    }

    public string ToJson() => JsonSerializer.Serialize(this, ResultFiles.Options) + "\n";

    public static HeadlineSummary Read(string path) =>
        JsonSerializer.Deserialize<HeadlineSummary>(File.ReadAllText(path), ResultFiles.Options)
            ?? throw new InvalidOperationException($"'{path}' holds no headline.");

    /// <summary>The two tables the README's first screen and results.md show, with the line that says where they come from.</summary>
    public string Markdown()
    {
        var md = new StringBuilder();
        var counts = Rows.Select(r => r.Connections).Distinct().Order().ToList();
        md.AppendLine(CultureInfo.InvariantCulture, $"`{Command}` on {Date:yyyy-MM-dd HH:mm} UTC at `{Commit}`, {Machine}: {Plan}. RPS: median (95% interval); p99: median; memory: the front-end's peak resident, median.");
        md.AppendLine();
        md.Append("| flow |");
        foreach (var c in counts)
        {
            md.Append(CultureInfo.InvariantCulture, $" c{c} RPS | c{c} p99 |");
        }

        md.AppendLine(" front-end RSS |");
        md.AppendLine("|---|" + string.Concat(Enumerable.Repeat("---|---|", counts.Count)) + "---|");
        foreach (var flow in Rows.Select(r => r.Flow).Distinct())
        {
            var rows = Rows.Where(r => r.Flow == flow).ToList();
            var label = HeadlineRow.Label(flow);
            md.Append(CultureInfo.InvariantCulture, $"| {(flow == HeadlineRow.FastestFlow ? $"**{label}**" : label)} |");
            foreach (var c in counts)
            {
                var row = rows.FirstOrDefault(r => r.Connections == c);
                md.Append(row is null ? " – | – |" : $" {row.DescribeRps()} | {Format.Ms(row.P99Ms)} |");
            }

            md.AppendLine(CultureInfo.InvariantCulture, $" {string.Join(" / ", rows.Select(r => Format.Mb(r.FrontEndPeakRssBytes)).Distinct())} |");
        }

        if (Verdicts.Count > 0)
        {
            md.AppendLine();
            md.Append("| verdict: RPS ratio (95% interval) |");
            var verdictCounts = Verdicts.Select(v => v.Connections).Distinct().Order().ToList();
            foreach (var c in verdictCounts)
            {
                md.Append(CultureInfo.InvariantCulture, $" c{c} |");
            }

            md.AppendLine();
            md.AppendLine("|---|" + string.Concat(Enumerable.Repeat("---|", verdictCounts.Count)));
            foreach (var question in Verdicts.Select(v => v.Question).Distinct())
            {
                md.Append(CultureInfo.InvariantCulture, $"| {question} |");
                foreach (var c in verdictCounts)
                {
                    var verdict = Verdicts.FirstOrDefault(v => v.Question == question && v.Connections == c);
                    md.Append(verdict is null ? " – |" : $" {Bold(verdict)} |");
                }

                md.AppendLine();
            }
        }

        Notes(md);
        return md.ToString();
    }

    /// <summary>What the tables imply, in words drawn from them alone: each flow as a share of the floor, the fastest
    /// front-end's memory against the fastest peers', and which verdicts the rounds could not decide.</summary>
    private void Notes(StringBuilder md)
    {
        md.AppendLine();
        var floor = Rows.Where(r => r.Flow == HeadlineRow.FloorFlow && r.LossCheckPassed).OrderBy(r => r.Connections).ToList();
        if (floor.Count > 0)
        {
            var shares = Rows.Where(r => r.Flow != HeadlineRow.FloorFlow).Select(r => r.Flow).Distinct().Select(flow =>
            {
                var rows = floor.Select(f => Rows.FirstOrDefault(r => r.Flow == flow && r.Connections == f.Connections))
                    .Select((r, i) => r is null ? "–" : Format.Percent(r.Rps / floor[i].Rps));
                return $"{HeadlineRow.Label(flow)} {string.Join(" / ", rows)}";
            });
            md.AppendLine(CultureInfo.InvariantCulture,
                $"- **Share of the floor** (two HTTP exchanges and no JSON work: nginx passing each request to an nginx that answers 200, " +
                $"{string.Join(" / ", floor.Select(f => Format.Rps(f.Rps)))} RPS at {string.Join(" / ", floor.Select(f => $"c{f.Connections}"))}): {string.Join("; ", shares)}.");
        }

        var fastest = Rows.Where(r => r.Flow == HeadlineRow.FastestFlow).OrderBy(r => r.Connections).ToList();
        foreach (var peer in (string[])["rust-hyper", "go-fasthttp"])
        {
            var peerRows = Rows.Where(r => r.Flow == peer).ToList();
            var pairs = fastest.Select(f => (Fastest: f, Peer: peerRows.FirstOrDefault(g => g.Connections == f.Connections))).Where(p => p.Peer is not null).ToList();
            if (pairs.Count == 0)
            {
                continue;
            }

            md.AppendLine(CultureInfo.InvariantCulture,
                $"- **What it costs against {HeadlineRow.Label(peer)}**: memory. The fastest front-end peaked at {string.Join(" / ", pairs.Select(p => Format.Mb(p.Fastest.FrontEndPeakRssBytes)))} resident " +
                $"({string.Join(" / ", pairs.Select(p => $"c{p.Fastest.Connections}"))}), {string.Join(" / ", pairs.Select(p => Format.Ratio(p.Fastest.FrontEndPeakRssBytes / p.Peer!.FrontEndPeakRssBytes)))} its: the runtime's JIT, heap and pools.");
        }

        var undecided = Verdicts.Where(v => v.Standing is Standing.Level or Standing.Undecided).ToList();
        md.AppendLine(undecided.Count == 0
            ? "- **Within the noise**: nothing: every verdict's interval lies wholly on one side of 1."
            : $"- **Within the noise**: {string.Join("; ", undecided.Select(v => $"{v.Question} at c{v.Connections} ({Format.Ratio(v.Lower).TrimEnd('×')}–{Format.Ratio(v.Upper)})"))} — the rounds cannot tell {(undecided.Count == 1 ? "it" : "them")} from level; every other verdict's interval lies wholly on one side of 1.");
    }

    /// <summary>Replaces what stands between the headline markers of a Markdown file with <see cref="Markdown"/>.</summary>
    public string Into(string document, string path)
    {
        var begin = document.IndexOf(BeginMarker, StringComparison.Ordinal);
        var end = document.IndexOf(EndMarker, StringComparison.Ordinal);
        if (begin < 0 || end < begin)
        {
            throw new InvalidOperationException($"{path} has no '{BeginMarker}' ... '{EndMarker}' block for the headline.");
        }

        return document[..(begin + BeginMarker.Length)] + "\n" + Markdown() + document[end..];
    }

    public const string BeginMarker = "<!-- headline:begin -->";

    public const string EndMarker = "<!-- headline:end -->";

    private static string Bold(Verdict verdict) => verdict.Standing is Standing.Ahead or Standing.Behind
        ? verdict.Describe().Replace(verdict.Standing.ToString().ToLowerInvariant(), $"**{verdict.Standing.ToString().ToLowerInvariant()}**", StringComparison.Ordinal)
        : verdict.Describe();
}
