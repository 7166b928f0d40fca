using System.Text.Json;
using System.Text.Json.Serialization;

namespace Ingest.Core.Serialization;

/// <summary>
/// Reads the dates of a forward body (<c>timestamp</c>, <c>received_at</c>) only when they carry an offset, as UTC.
/// System.Text.Json's own converter takes <c>2026-11-22T10:00</c> as a time of unspecified kind — an unknown instant,
/// which the stores would then each interpret their own way (found by fuzzing the back-end's reader); the contract and
/// the Go baselines refuse it. Writing is System.Text.Json's own (UTC, <c>Z</c>).
/// </summary>
/// <remarks>Parsed in place by the reader (no string per date, the back-end's hot path): its ISO 8601 profile, with
/// the offset required here, rather than <see cref="Validation.Timestamps"/>, which needs the text.</remarks>
internal sealed class StrictDateTimeConverter : JsonConverter<DateTime>
{
    public override DateTime Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        // The reader's DateTime says whether there was an offset (Z: Utc, +hh:mm: Local, none: Unspecified); the
        // instant comes from its DateTimeOffset, which keeps the offset as sent rather than going through the
        // machine's time zone (ambiguous in the hour a clock goes back).
        if (reader.TokenType != JsonTokenType.String || !reader.TryGetDateTime(out var local) || local.Kind == DateTimeKind.Unspecified
            || !reader.TryGetDateTimeOffset(out var instant))
        {
            throw new JsonException("Expected an RFC 3339 date-time with an offset.");
        }

        return instant.UtcDateTime;
    }

    public override void Write(Utf8JsonWriter writer, DateTime value, JsonSerializerOptions options) => writer.WriteStringValue(value);
}
