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
            Plan = $"{s.Rounds} interleaved round(s) of {s.Repeats} x {s.DurationSeconds:0.#} s per scenario, services kept up between rounds; load generator and services on the same {m.Cores} cores",
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
        md.AppendLine(CultureInfo.InvariantCulture, $"Measured {Date:yyyy-MM-dd HH:mm} UTC at `{Commit}` on {Machine}. {Plan}. RPS: median (95% interval); p99: median; memory: front-end's peak resident, median.");
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

        return md.ToString();
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
