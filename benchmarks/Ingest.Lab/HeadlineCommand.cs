using Ingest.Lab.Processes;
using Ingest.Lab.Results;

namespace Ingest.Lab;

/// <summary>
/// <c>headline [run] [--check]</c>: the README's and results.md's headline tables, rendered from the committed summary
/// of one headline run (docs/headline.json). Given a run's folder, that summary is first replaced by the run's own.
/// With <c>--check</c> nothing is written: it fails when a document's table is not what the summary renders.
/// </summary>
internal sealed class HeadlineCommand(RepositoryLayout layout, TextWriter output)
{
    /// <summary>The committed summary, relative to the repository's root.</summary>
    public static readonly string SummaryPath = Path.Combine("docs", ResultFiles.HeadlineJson);

    /// <summary>The documents that show the headline between <see cref="HeadlineSummary.BeginMarker"/> and its end marker.</summary>
    public static readonly string[] Documents = ["README.md", Path.Combine("docs", "results.md")];

    public int Run(string? run, bool check)
    {
        var summaryFile = Path.Combine(layout.Root, SummaryPath);
        if (run is not null)
        {
            var headline = HeadlineSummary.Of(ResultFiles.Read(run))
                ?? throw new InvalidOperationException($"'{run}' measured no scenario of the headline set.");
            if (check)
            {
                throw new InvalidOperationException("--check reads the committed summary only; give no run with it.");
            }

            File.WriteAllText(summaryFile, headline.ToJson());
            output.WriteLine($"Wrote {SummaryPath} from {run}.");
        }

        var summary = HeadlineSummary.Read(summaryFile);
        var stale = 0;
        foreach (var document in Documents)
        {
            var path = Path.Combine(layout.Root, document);
            var text = File.ReadAllText(path);
            var rendered = summary.Into(text, document);
            if (rendered == text)
            {
                output.WriteLine($"{document}: the headline is what {SummaryPath} renders.");
            }
            else if (check)
            {
                output.WriteLine($"{document}: the headline is NOT what {SummaryPath} renders; run 'headline' to rewrite it.");
                stale++;
            }
            else
            {
                File.WriteAllText(path, rendered);
                output.WriteLine($"{document}: headline rewritten from {SummaryPath}.");
            }
        }

        return stale == 0 ? 0 : 1;
    }
}
