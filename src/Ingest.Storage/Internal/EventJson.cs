using System.Text.Json;
using Ingest.Core.Events;

namespace Ingest.Storage.Internal;

/// <summary>A normalised event as one JSON object, in the contract's member names and order (docs/contract.md).</summary>
internal static class EventJson
{
    public static void Write(Utf8JsonWriter json, IngestEvent e)
    {
        json.WriteStartObject();
        json.WriteString("type"u8, e.Type switch { EventType.Job => "job"u8, EventType.Metric => "metric"u8, _ => "log"u8 });
        json.WriteString("source"u8, e.Source);
        json.WriteString("timestamp"u8, e.Timestamp);
        json.WriteString("received_at"u8, e.ReceivedAt);
        Optional(json, "job_id"u8, e.JobId);
        Optional(json, "container_id"u8, e.ContainerId);
        Optional(json, "status"u8, e.Status);
        Optional(json, "name"u8, e.Name);
        if (e.Value is { } value)
        {
            json.WriteNumber("value"u8, value);
        }

        Optional(json, "unit"u8, e.Unit);
        Optional(json, "level"u8, e.Level);
        Optional(json, "message"u8, e.Message);
        json.WriteEndObject();
    }

    private static void Optional(Utf8JsonWriter json, ReadOnlySpan<byte> name, string? value)
    {
        if (value is not null)
        {
            json.WriteString(name, value);
        }
    }
}
