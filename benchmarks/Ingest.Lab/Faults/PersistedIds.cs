namespace Ingest.Lab.Faults;

/// <summary>
/// The events the back-end's file sink holds, by job id: one NDJSON line each (<c>Sinks:File</c>). The faults command
/// gives every request a job id of its own, so a line whose id was seen before is an event persisted twice — which a
/// count of events cannot tell from an event of unknown outcome.
/// </summary>
internal static class PersistedIds
{
    private const string JobId = "\"job_id\":\"";

    /// <summary>Lines whose job id starts with <paramref name="prefix"/>, and how many distinct ids they hold.</summary>
    public static (long Lines, long Distinct) Count(string directory, string prefix)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        long lines = 0;
        foreach (var file in Directory.EnumerateFiles(directory, "*.ndjson"))
        {
            foreach (var line in File.ReadLines(file))
            {
                var at = line.IndexOf(JobId, StringComparison.Ordinal);
                if (at < 0 || string.CompareOrdinal(line, at + JobId.Length, prefix, 0, prefix.Length) != 0)
                {
                    continue;
                }

                var start = at + JobId.Length;
                var end = line.IndexOf('"', start);
                lines++;
                seen.Add(line[start..(end < 0 ? line.Length : end)]);
            }
        }

        return (lines, seen.Count);
    }
}
