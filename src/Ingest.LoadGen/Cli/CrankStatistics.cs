using System.Text;
using System.Text.Json;

namespace Ingest.LoadGen.Cli;

/// <summary>
/// Crank's job statistics block: <c>#StartJobStatistics</c>, one JSON object
/// <c>{"Metadata":[...],"Measurements":[...]}</c>, <c>#EndJobStatistics</c>, printed as the last lines of
/// stdout (the agent looks for the end marker on the last line and parses the JSON in between with
/// Newtonsoft.Json). Metadata members are Crank's MeasurementMetadata (Source, Name, Aggregate, Reduce,
/// ShortDescription, LongDescription, Format; Aggregate/Reduce name an Operation such as Max, Sum, Avg);
/// measurements are (Timestamp, Name, Value). Names are the ones Crank's own HTTP jobs use, so dashboards
/// and <c>crank compare</c> treat this generator like bombardier or wrk.
/// </summary>
internal static class CrankStatistics
{
    public const string StartMarker = "#StartJobStatistics";
    public const string EndMarker = "#EndJobStatistics";
    private const string Source = "Ingest.LoadGen";

    public static string Format(LoadResult result, LossCheck? loss = null)
    {
        var l = result.Latency;
        (string Name, string Aggregate, string Reduce, string Short, string Long, string Format, double Value)[] items =
        [
            ("http/requests", "Max", "Sum", "Requests", "Total number of requests", "n0", result.Requests),
            ("http/requests/badresponses", "Max", "Sum", "Bad responses", "Non-2xx responses", "n0", result.BadResponses),
            ("http/requests/errors", "Max", "Sum", "Socket errors", "Connect, timeout, read, write and parse errors", "n0", result.Errors.Total),
            ("http/rps/mean", "Max", "Sum", "Requests/sec", "Requests per second", "n0", result.RequestsPerSecond),
            ("http/latency/mean", "Max", "Avg", "Mean latency (ms)", "Mean latency (ms)", "n2", l.MeanMs),
            ("http/latency/50", "Max", "Max", "Latency 50th (ms)", "Latency 50th (ms)", "n2", l.P50Ms),
            ("http/latency/75", "Max", "Max", "Latency 75th (ms)", "Latency 75th (ms)", "n2", l.P75Ms),
            ("http/latency/90", "Max", "Max", "Latency 90th (ms)", "Latency 90th (ms)", "n2", l.P90Ms),
            ("http/latency/95", "Max", "Max", "Latency 95th (ms)", "Latency 95th (ms)", "n2", l.P95Ms),
            ("http/latency/99", "Max", "Max", "Latency 99th (ms)", "Latency 99th (ms)", "n2", l.P99Ms),
            ("http/latency/max", "Max", "Max", "Max latency (ms)", "Max latency (ms)", "n2", l.MaxMs),
            ("http/throughput", "Max", "Sum", "Read throughput (MB/s)", "Read throughput (MB/s)", "n2",
                result.ElapsedSeconds > 0 ? result.BytesRead / result.ElapsedSeconds / (1024 * 1024) : 0),
            ("ingest/warmup/seconds", "Max", "Max", "Warm-up (s)", "How long the warm-up lasted (adaptive with --warmup-limit)", "n1", result.Settings.WarmupSeconds),
            ("ingest/warmup/stable", "Max", "Min", "Warm-up stable", "1 when the warm-up ended because the rate stopped rising (or was fixed)", "n0", result.WarmupStable ? 1 : 0),
            .. loss is null ? [] : LossItems(loss),
        ];

        var timestamp = DateTime.UtcNow;
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            json.WriteStartObject();
            json.WriteStartArray("Metadata");
            foreach (var item in items)
            {
                WriteMetadata(json, item.Name, item.Aggregate, item.Reduce, item.Short, item.Long, item.Format);
            }

            if (result.FirstResponseMilliseconds is not null)
            {
                WriteMetadata(json, "http/firstrequest", "Max", "Max", "First Request (ms)", "Time to first response in ms", "n0");
            }

            json.WriteEndArray();
            json.WriteStartArray("Measurements");
            foreach (var item in items)
            {
                WriteMeasurement(json, timestamp, item.Name, item.Value);
            }

            if (result.FirstResponseMilliseconds is { } first)
            {
                WriteMeasurement(json, timestamp, "http/firstrequest", first);
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        var text = new StringBuilder();
        text.AppendLine(StartMarker);
        text.AppendLine(Encoding.UTF8.GetString(stream.ToArray()));
        text.AppendLine(EndMarker);
        return text.ToString();
    }

    /// <summary>The loss check as measurements of their own (names under ingest/, not Crank's http/), so a results
    /// file says whether every acknowledged event was persisted. Summed over load agents, like requests.</summary>
    private static (string, string, string, string, string, string, double)[] LossItems(LossCheck loss) =>
    [
        ("ingest/events/acknowledged", "Max", "Sum", "Events acknowledged", "Events in 2xx-answered requests, warm-up included", "n0", loss.Acknowledged),
        ("ingest/events/unknown", "Max", "Sum", "Events of unknown outcome", "Events in requests timed out, reset, in flight at the end or answered 504", "n0", loss.Unknown),
        ("ingest/events/persisted", "Max", "Sum", "Events persisted", "The back-end's persisted total after the run (GET /ingest/stats)", "n0", loss.Persisted),
        ("ingest/events/lost", "Max", "Sum", "Events lost", "Acknowledged but not persisted: must be 0", "n0", loss.Lost),
        ("ingest/losscheck", "Max", "Min", "Loss check passed", "1 when every acknowledged event was persisted and nothing unaccounted for", "n0", loss.Passed ? 1 : 0),
    ];

    private static void WriteMetadata(Utf8JsonWriter json, string name, string aggregate, string reduce, string shortDescription, string longDescription, string format)
    {
        json.WriteStartObject();
        json.WriteString("Source", Source);
        json.WriteString("Name", name);
        json.WriteString("Aggregate", aggregate);
        json.WriteString("Reduce", reduce);
        json.WriteString("ShortDescription", shortDescription);
        json.WriteString("LongDescription", longDescription);
        json.WriteString("Format", format);
        json.WriteEndObject();
    }

    private static void WriteMeasurement(Utf8JsonWriter json, DateTime timestamp, string name, double value)
    {
        json.WriteStartObject();
        json.WriteString("Timestamp", timestamp);
        json.WriteString("Name", name);
        json.WriteNumber("Value", double.IsFinite(value) ? value : 0);
        json.WriteEndObject();
    }
}
