using System.Text;
using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Results;

/// <summary>The verdicts of a run: every comparison its sets name (<see cref="ScenarioCatalogue.ComparisonsIn"/>) whose
/// two scenarios were both measured and passed their loss check.</summary>
internal static class Verdicts
{
    public static IReadOnlyList<Verdict> Of(IReadOnlyList<ScenarioResult> results)
    {
        var verdicts = new List<Verdict>();
        foreach (var set in results.Select(r => r.Set).Distinct())
        {
            foreach (var comparison in ScenarioCatalogue.ComparisonsIn(set))
            {
                var subject = Measured(results, set, comparison.Subject);
                var baseline = Measured(results, set, comparison.Baseline);
                if (subject is not null && baseline is not null)
                {
                    verdicts.Add(Verdict.Of(comparison.Question, subject, baseline, LoadOf.Connections(subject)));
                }
            }
        }

        return verdicts;
    }

    /// <summary>The verdicts as a plain-text table, a question a line and a column per connection count.</summary>
    public static string Table(IReadOnlyList<Verdict> verdicts)
    {
        if (verdicts.Count == 0)
        {
            return "";
        }

        var counts = verdicts.Select(v => v.Connections).Distinct().Order().ToList();
        const string heading = "verdict: RPS ratio of medians (95% interval)";
        var width = Math.Max(heading.Length, verdicts.Max(v => v.Question.Length)) + 2;
        var text = new StringBuilder();
        text.Append(heading.PadRight(width));
        foreach (var c in counts)
        {
            text.Append($"c{c}".PadRight(32));
        }

        text.AppendLine();
        foreach (var question in verdicts.Select(v => v.Question).Distinct())
        {
            text.Append(question.PadRight(width));
            foreach (var c in counts)
            {
                text.Append((verdicts.FirstOrDefault(v => v.Question == question && v.Connections == c)?.Describe() ?? "-").PadRight(32));
            }

            text.AppendLine();
        }

        return text.ToString().TrimEnd() + Environment.NewLine;
    }

    private static ScenarioResult? Measured(IReadOnlyList<ScenarioResult> results, string set, string name) =>
        results.FirstOrDefault(r => r.Set == set && r.Name == name && r.Status == ScenarioStatus.Passed && r.Runs.Count > 0);
}
