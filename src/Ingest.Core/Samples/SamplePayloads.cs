using System.Globalization;
using System.Text;

namespace Ingest.Core.Samples;

/// <summary>
/// The request bodies every measurement and test sends: the 2016 classic payload byte for byte, typed events
/// and batches. One source, so the lab, the benchmarks and the tests send the same bytes.
/// </summary>
public static class SamplePayloads
{
    /// <summary>The original test's payload, exactly as <c>ab -p payload.json</c> sent it.</summary>
    public const string Classic =
        "{\"data\": \"{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}\"}";

    /// <summary>A fixed timestamp, so payloads are identical from run to run.</summary>
    public const string Timestamp = "2026-11-22T10:00:00Z";

    public static string Job(int i) =>
        string.Create(CultureInfo.InvariantCulture, $$"""{"type":"job","source":"builder-{{i % 8}}","timestamp":"{{Timestamp}}","job_id":"job-{{i}}","container_id":"c-{{i:x8}}","status":"Success: process exited with code 0."}""");

    public static string Metric(int i) =>
        string.Create(CultureInfo.InvariantCulture, $$"""{"type":"metric","source":"node-{{i % 8}}","timestamp":"{{Timestamp}}","name":"cpu","value":{{i % 100 / 100.0}},"unit":"ratio"}""");

    public static string Log(int i) =>
        string.Create(CultureInfo.InvariantCulture, $$"""{"type":"log","source":"api-{{i % 8}}","timestamp":"{{Timestamp}}","level":"warn","message":"request {{i}} took longer than expected"}""");

    /// <summary>Event <paramref name="i"/> of a mixed batch: jobs, metrics and logs in turn.</summary>
    public static string Mixed(int i) => (i % 3) switch
    {
        0 => Job(i),
        1 => Metric(i),
        _ => Log(i),
    };

    /// <summary>A JSON array of <paramref name="count"/> mixed events.</summary>
    public static string JsonArray(int count) => "[" + string.Join(",", Events(count)) + "]";

    /// <summary>The same events as <see cref="JsonArray"/>, one per line.</summary>
    public static string Ndjson(int count) => string.Join("\n", Events(count)) + "\n";

    /// <summary>A single job event whose status pads the body to <paramref name="bytes"/> bytes; the status may
    /// hold at most <see cref="Validation.EventValidator.MaxTextLength"/> characters, so larger bodies are batches.</summary>
    public static string JobOfSize(int bytes)
    {
        var baseline = Job(0).Length - "Success: process exited with code 0.".Length;
        ArgumentOutOfRangeException.ThrowIfGreaterThan(bytes - baseline, Validation.EventValidator.MaxTextLength, nameof(bytes));
        var status = new StringBuilder();
        while (baseline + status.Length < bytes)
        {
            status.Append("log line ").Append(status.Length.ToString(CultureInfo.InvariantCulture)).Append("; ");
        }

        return Job(0).Replace("Success: process exited with code 0.", status.ToString(0, Math.Max(0, bytes - baseline)), StringComparison.Ordinal);
    }

    /// <summary>How many events of each type <see cref="Mixed"/> yields for the first <paramref name="count"/> indices.</summary>
    public static (int Job, int Metric, int Log) MixedCounts(int count) => ((count + 2) / 3, (count + 1) / 3, count / 3);

    private static IEnumerable<string> Events(int count)
    {
        for (var i = 0; i < count; i++)
        {
            yield return Mixed(i);
        }
    }
}
