using System.Globalization;
using Ingest.Core.Validation;
using Newtonsoft.Json;

namespace Ingest.Core.Serialization;

/// <summary>
/// Newtonsoft.Json turns a number into a string and a numeric string into a double without a word;
/// System.Text.Json rejects both. These converters make Newtonsoft reject them too, so a wrong type is a
/// 400 whatever the serializer. Dates read from a forward body (never from a client's event, whose timestamp stays
/// text until the validator parses it) must be RFC 3339 with an offset, as <see cref="StrictDateTimeConverter"/>
/// requires of System.Text.Json.
/// </summary>
internal static class StrictConverters
{
    public static readonly JsonConverter String = new StringConverter();
    public static readonly JsonConverter Double = new DoubleConverter();
    public static readonly JsonConverter DateTime = new DateTimeConverter();

    /// <summary>A member with a JSON type other than the one its field needs.</summary>
    internal sealed class WrongTypeException(string message, string path) : Exception(message)
    {
        public string Path { get; } = path;
    }

    private sealed class StringConverter : JsonConverter<string>
    {
        public override bool CanWrite => false;

        public override string? ReadJson(JsonReader reader, Type objectType, string? existingValue, bool hasExistingValue, JsonSerializer serializer) =>
            reader.TokenType switch
            {
                JsonToken.String => (string?)reader.Value,
                JsonToken.Null => null,
                _ => throw new WrongTypeException("must be a string", reader.Path),
            };

        public override void WriteJson(JsonWriter writer, string? value, JsonSerializer serializer) => throw new NotSupportedException();
    }

    private sealed class DoubleConverter : JsonConverter
    {
        public override bool CanWrite => false;

        public override bool CanConvert(Type objectType) => objectType == typeof(double) || objectType == typeof(double?);

        public override object? ReadJson(JsonReader reader, Type objectType, object? existingValue, JsonSerializer serializer) =>
            reader.TokenType switch
            {
                // Integers beyond Int64 arrive as BigInteger, which is not IConvertible.
                JsonToken.Integer when reader.Value is System.Numerics.BigInteger big => (double)big,
                JsonToken.Float or JsonToken.Integer => Convert.ToDouble(reader.Value, CultureInfo.InvariantCulture),
                JsonToken.Null when objectType == typeof(double?) => null,
                _ => throw new WrongTypeException("must be a number", reader.Path),
            };

        public override void WriteJson(JsonWriter writer, object? value, JsonSerializer serializer) => throw new NotSupportedException();
    }

    private sealed class DateTimeConverter : JsonConverter
    {
        public override bool CanWrite => false;

        public override bool CanConvert(Type objectType) => objectType == typeof(DateTime);

        // Newtonsoft's own conversion (DateParseHandling.None leaves the token a string) takes whatever DateTime.Parse
        // takes, "11/22/2026" and times without an offset included.
        public override object ReadJson(JsonReader reader, Type objectType, object? existingValue, JsonSerializer serializer) =>
            reader.TokenType == JsonToken.String && Timestamps.TryParse((string)reader.Value!, out var utc)
                ? utc
                : throw new WrongTypeException("must be an RFC 3339 date-time with an offset", reader.Path);

        public override void WriteJson(JsonWriter writer, object? value, JsonSerializer serializer) => throw new NotSupportedException();
    }
}
