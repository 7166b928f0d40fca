using System.Globalization;
using System.Text;

namespace Ingest.Lab.Results;

/// <summary>
/// Compares two runs scenario by scenario: the ratio of medians (B / A) for throughput, p99 and front-end
/// memory, marked as a real difference only when the two runs' min–max ranges do not overlap — with three
/// repeats, overlapping ranges mean the difference is within the run-to-run noise.
/// </summary>
internal static class Comparer
{
    public static string Compare(RunReport a, RunReport b)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"A: {a.RunId} ({a.Machine.CpuModel}, {a.Machine.Cores} cores, {a.Settings.Rounds}x{a.Settings.Repeats}x{a.Settings.DurationSeconds:0.#} s)");
        text.AppendLine(CultureInfo.InvariantCulture, $"B: {b.RunId} ({b.Machine.CpuModel}, {b.Machine.Cores} cores, {b.Settings.Rounds}x{b.Settings.Repeats}x{b.Settings.DurationSeconds:0.#} s)");
        if (a.Machine.CpuModel != b.Machine.CpuModel || a.Machine.Cores != b.Machine.Cores)
        {
            text.AppendLine("Note: the runs were measured on different machines; ratios compare machines as much as configurations.");
        }

        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"{"scenario",-44} {"RPS B/A",-22} {"p99 B/A",-22} {"front-end RSS B/A",-18}");
        var byId = a.Scenarios.Where(s => s.Summary is not null).ToDictionary(s => s.Id);
        var compared = 0;
        foreach (var right in b.Scenarios.Where(s => s.Summary is not null))
        {
            if (!byId.Remove(right.Id, out var left))
            {
                text.AppendLine(CultureInfo.InvariantCulture, $"{right.Id,-44} only in B");
                continue;
            }

            compared++;
            var l = left.Summary!;
            var r = right.Summary!;
            text.AppendLine(CultureInfo.InvariantCulture,
                $"{right.Id,-44} {Cell(l.RequestsPerSecond, r.RequestsPerSecond),-22} {Cell(l.P99, r.P99),-22} {Format.Ratio(SummaryWriter.PeakRss(r, "front-end") / SummaryWriter.PeakRss(l, "front-end")),-18}");
        }

        foreach (var only in byId.Keys)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"{only,-44} only in A");
        }

        text.AppendLine();
        text.AppendLine(compared == 0
            ? "No scenario was measured in both runs."
            : "* marks a difference beyond the noise: the two runs' min–max ranges do not overlap.");
        return text.ToString();
    }

    /// <summary>True when the ranges of the repeats do not overlap.</summary>
    public static bool Significant(Spread a, Spread b) => a.Count > 0 && b.Count > 0 && (b.Min > a.Max || b.Max < a.Min);

    private static string Cell(Spread a, Spread b) =>
        Format.Ratio(b.Median / a.Median) + (Significant(a, b) ? " *" : "  ") + $" (±{Format.Percent(Math.Max(a.RelativeRange, b.RelativeRange) / 2)})";
}
