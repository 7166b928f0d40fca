using System.Text;
using Ingest.Core.Parsing;
using Ingest.Core.Samples;

namespace Ingest.Benchmarks.Micro;

/// <summary>The request bodies the serialization benchmarks read, from the samples every test and the lab send.</summary>
public enum Payload
{
    /// <summary>The 2016 payload, 128 bytes, its inner document single-quoted.</summary>
    Classic,

    /// <summary>One typed job event of 1 KB.</summary>
    Job1K,

    /// <summary>A JSON array of sixteen 1 KB job events: 16 KB (a single event's text is capped at 4,096 characters).</summary>
    Array16K,

    /// <summary>A JSON array of 100 mixed events (jobs, metrics, logs).</summary>
    Array100,

    /// <summary>The same 100 events as NDJSON.</summary>
    Ndjson100,
}

internal static class Payloads
{
    public static (byte[] Body, PayloadFormat Format) Get(Payload payload) => payload switch
    {
        Payload.Classic => (Utf8(SamplePayloads.Classic), PayloadFormat.Json),
        Payload.Job1K => (Utf8(SamplePayloads.JobOfSize(1024)), PayloadFormat.Json),
        Payload.Array16K => (Utf8("[" + string.Join(",", Enumerable.Repeat(SamplePayloads.JobOfSize(1023), 16)) + "]"), PayloadFormat.Json),
        Payload.Array100 => (Utf8(SamplePayloads.JsonArray(100)), PayloadFormat.Json),
        Payload.Ndjson100 => (Utf8(SamplePayloads.Ndjson(100)), PayloadFormat.Ndjson),
        _ => throw new ArgumentOutOfRangeException(nameof(payload), payload, null),
    };

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);
}
