using Ingest.Lab.Catalogue;
using Ingest.Lab.Crank;
using Ingest.Lab.Processes;
using Ingest.Lab.Results;
using Ingest.Lab.Running;
using static Ingest.Lab.Cli.OptionKinds;

namespace Ingest.Lab.Cli;

/// <summary>The lab's short commands, which need no more than their arguments: <c>list</c>, <c>compare</c>,
/// <c>report</c>, <c>crank</c> and <c>payloads</c>. The long ones have a class each (<see cref="RunCommand"/>,
/// <see cref="SoakCommand"/>, <see cref="TrainCommand"/>, <see cref="Demo"/>).</summary>
internal static class LabActions
{
    /// <summary>The scenario sets, each with its plan (what a run does when no flag says otherwise), and their scenarios.</summary>
    public static int List(TextWriter output)
    {
        foreach (var set in ScenarioCatalogue.Sets)
        {
            output.WriteLine($"{set}{(set == ScenarioCatalogue.DefaultSet ? " (default)" : "")}, plan: {Plan(LabOptions.PlanFor([set], smoke: false))}");
            foreach (var scenario in ScenarioCatalogue.InSet(set))
            {
                output.WriteLine($"  {scenario.Name,-36} {scenario.Title}");
            }
        }

        return 0;
    }

    public static int Compare(TextWriter output, string runA, string runB)
    {
        output.Write(Comparer.Compare(ResultFiles.Read(runA), ResultFiles.Read(runB)));
        return 0;
    }

    public static int Report(TextWriter output, string run)
    {
        var folder = Directory.Exists(run) ? run : Path.GetDirectoryName(Path.GetFullPath(run))!;
        ResultFiles.WriteAll(folder, ResultFiles.Read(run));
        output.WriteLine($"Rewrote {Path.Combine(folder, ResultFiles.SummaryMarkdown)} and {ResultFiles.ReportHtml} from {ResultFiles.ResultsJson}.");
        return 0;
    }

    /// <summary>Regenerates the Crank configuration from the catalogue (not when <paramref name="checkOnly"/>), then
    /// validates it; 1 when a scenario does not resolve.</summary>
    public static int Crank(TextWriter output, TextWriter error, bool checkOnly)
    {
        var config = Path.Combine(RepositoryLayout.Find().Root, "crank", CrankConfig.FileName);
        if (!checkOnly)
        {
            File.WriteAllText(config, CrankConfig.Generate(ScenarioCatalogue.All));
            output.WriteLine($"Wrote {config} ({ScenarioCatalogue.All.Count(CrankConfig.Covers) + 1} scenarios).");
        }

        var problems = CrankValidator.Validate(config, CrankConfig.PublishedFolders);
        foreach (var problem in problems)
        {
            error.WriteLine(problem);
        }

        output.WriteLine(problems.Count == 0 ? "Every scenario x profile resolves." : $"{problems.Count} problem(s).");
        return problems.Count == 0 ? 0 : 1;
    }

    public static int Payloads(string folder)
    {
        Directory.CreateDirectory(folder);
        foreach (var (kind, file) in new[] { (PayloadKind.Classic, "classic.json"), (PayloadKind.Batch100, "batch100.json"), (PayloadKind.Batch100Ndjson, "batch100.ndjson") })
        {
            File.Move(PayloadFiles.Write(Directory.CreateTempSubdirectory().FullName, kind), Path.Combine(folder, file), overwrite: true);
        }

        return 0;
    }

    private static string Plan(LabOptions plan) =>
        $"{plan.Repeats} repeat{(plan.Repeats == 1 ? "" : "s")} of {Seconds(plan.Duration)} after a {Seconds(plan.Warmup)} warm-up " +
        $"(up to {Seconds(plan.WarmupLimit)}), {plan.Rounds} round{(plan.Rounds == 1 ? "" : "s")}" +
        (plan.KeepServices ? $" over services kept up between rounds (warmed {Seconds(plan.Rewarm)} again in each later round)" : "");
}
