using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using CsCheck;
using Ingest.Core.Buffers;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;

namespace Ingest.Core.Tests;

/// <summary>
/// Property-based tests (CsCheck): any valid event — job, metric or log, with text from every UTF-8 width, numbers at
/// the edges of double, timestamps with any offset and fraction — survives parse → normalise → serialize → parse
/// unchanged with each serializer; and any byte string is either read or refused with a 4xx problem, never an
/// exception. A failure prints the shrunk input and the seed to replay it (<c>Check.Sample(..., seed: "...")</c>).
/// </summary>
public sealed class ParserPropertyTests
{
    /// <summary>A few seconds in CI for all the properties together; shrinking makes a failure small anyway.</summary>
    private const long Iterations = 5_000;

    private static readonly string[] Levels = ["trace", "debug", "info", "warn", "error", "fatal"];

    // One code point of each UTF-8 width (ASCII, Latin-1 and beyond, the rest of the BMP, emoji), never a surrogate
    // half (not text) nor NUL (refused by the contract: stores cannot keep it).
    private static readonly Gen<string> CodePoint = Gen.Frequency(
        (6, Gen.Int[0x20, 0x7E]),
        (1, Gen.Int[0x01, 0x1F]),
        (2, Gen.Int[0x80, 0x7FF]),
        (2, Gen.Int[0x800, 0xD7FF]),
        (1, Gen.Int[0xE000, 0xFFFD]),
        (1, Gen.Int[0x10000, 0x10FFFF])).Select(char.ConvertFromUtf32);

    private static readonly Gen<string> Text = CodePoint.Array[0, 24].Select(string.Concat);

    private static readonly Gen<string> Identifier = Text.Where(s => !string.IsNullOrWhiteSpace(s));

    private static readonly Gen<double> Number = Gen.Frequency(
        (4, Gen.Double.Where(double.IsFinite)),
        (2, Gen.Long.Select(l => (double)l)),
        (2, Gen.OneOf(Gen.Const(0.0), Gen.Const(-0.0), Gen.Const(double.Epsilon), Gen.Const(double.MaxValue), Gen.Const(double.MinValue),
            Gen.Const(9007199254740993.0), Gen.Const(1e-308), Gen.Const(0.1), Gen.Const(-1.5e300))));

    /// <summary>An RFC 3339 timestamp and the UTC instant it names: any offset, 0 to 9 fraction digits (beyond 7 truncated),
    /// Z or z or t where RFC 3339 allows them.</summary>
    private static readonly Gen<(string Text, DateTime Utc)> Timestamp =
        Gen.Select(
            Gen.Long[new DateTime(2, 1, 1).Ticks, new DateTime(9998, 12, 31).Ticks],
            Gen.Int[-14 * 60, 14 * 60],
            Gen.Int[0, 9],
            Gen.Int[0, 7],
            (ticks, offsetMinutes, digits, flags) =>
            {
                var shown = Math.Min(digits, 7);
                var unit = TimeSpan.TicksPerSecond / (long)Math.Pow(10, shown);
                var utc = new DateTime(ticks - (ticks % unit), DateTimeKind.Utc);
                var offset = (flags & 1) == 1 ? TimeSpan.Zero : TimeSpan.FromMinutes(offsetMinutes);
                var local = utc + offset;
                var fraction = digits == 0 ? "" : "." + local.ToString("fffffff", CultureInfo.InvariantCulture)[..shown] + "98"[..(digits - shown)];
                var zone = offset == TimeSpan.Zero && (flags & 1) == 1
                    ? ((flags & 2) == 2 ? "z" : "Z")
                    : (offset < TimeSpan.Zero ? "-" : "+") + offset.Duration().ToString(@"hh\:mm", CultureInfo.InvariantCulture);
                var separator = (flags & 4) == 4 ? "t" : "T";
                return (local.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture) + separator + local.ToString("HH:mm:ss", CultureInfo.InvariantCulture) + fraction + zone, utc);
            });

    private static readonly Gen<ValidEvent> Event =
        Gen.Select(Gen.Enum<EventType>(), Identifier, Gen.Bool, Timestamp, Identifier, Text, Gen.Bool, Number)
            .SelectMany(
                e => Gen.Select(Text, Gen.Int[0, Levels.Length - 1], Gen.Int[0, 63]),
                (e, rest) =>
                {
                    var (type, source, padded, (timestamp, utc), id, text, optional, value) = e;
                    var (more, level, caseMask) = rest;
                    return new ValidEvent(
                        type,
                        padded ? " \t" + source + " " : source,
                        timestamp,
                        utc,
                        type == EventType.Job ? id : null,
                        type == EventType.Job && optional ? more : null,
                        type == EventType.Job ? text : null,
                        type == EventType.Metric ? id : null,
                        type == EventType.Metric ? value : null,
                        type == EventType.Metric && optional ? more : null,
                        type == EventType.Log ? MixCase(Levels[level], caseMask) : null,
                        type == EventType.Log ? text : null,
                        AsciiOnly: optional);
                });

    private static readonly Gen<string> JsonToken = Gen.OneOf(
        Gen.OneOf(Gen.Const("{"), Gen.Const("}"), Gen.Const("["), Gen.Const("]"), Gen.Const(","), Gen.Const(":"), Gen.Const("\""),
            Gen.Const("'"), Gen.Const("\\"), Gen.Const("\\u0000"), Gen.Const("\\ud800"), Gen.Const("null"), Gen.Const("1e400"), Gen.Const("\n")),
        Gen.OneOf(Gen.Const("\"type\":"), Gen.Const("\"job\""), Gen.Const("\"metric\""), Gen.Const("\"log\""), Gen.Const("\"source\":\"s\""),
            Gen.Const("\"timestamp\":\"2026-11-22T10:00:00Z\""), Gen.Const("\"received_at\":"), Gen.Const("\"job_id\":\"j\""), Gen.Const("\"status\":"),
            Gen.Const("\"value\":"), Gen.Const("\"level\":\"info\""), Gen.Const("\"message\":\"m\""), Gen.Const("\"data\":"), Gen.Const("\"$type\":")),
        Text);

    /// <summary>Byte strings: noise, JSON-shaped token soup, and valid bodies cut short.</summary>
    private static readonly Gen<byte[]> AnyBytes = Gen.Frequency(
        (2, Gen.Byte.Array[0, 200]),
        (4, JsonToken.Array[0, 40].Select(tokens => Encoding.UTF8.GetBytes(string.Concat(tokens)))),
        (2, Gen.Select(Event, Gen.Int[0, 100], (e, percent) => Body(e)[..(Body(e).Length * percent / 100)])));

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void AnyValidEventSurvivesParseNormaliseSerializeParseUnchanged(SerializerKind kind)
    {
        var reader = Serializers.Reader(kind);
        var serializer = IngestSerializers.Create(kind);
        var forwardReaders = Enum.GetValues<SerializerKind>().Select(k => new ForwardBodyReader(IngestSerializers.Create(k))).ToArray();
        Event.Sample(
            e =>
            {
                var events = new List<IngestEvent>();
                var problem = reader.Read(Body(e), PayloadFormat.Json, events);
                Assert.True(problem is null, problem?.Detail);
                var normalized = Assert.Single(events);
                EventAssert.Same(e.Normalized(), normalized, "read by the front-end");

                using var forward = new PooledBufferWriter();
                serializer.WriteEvents(forward, events);
                foreach (var forwardReader in forwardReaders)
                {
                    var read = new List<IngestEvent>();
                    var refused = forwardReader.Read(forward.WrittenMemory, read);
                    Assert.True(refused is null, $"{forwardReader.Serializer.Kind}: {refused?.Detail}");
                    EventAssert.Same(e.Normalized(), Assert.Single(read), $"forwarded, read by {forwardReader.Serializer.Kind}");
                }
            },
            iter: Iterations,
            print: e => Encoding.UTF8.GetString(Body(e)));
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void AnyByteStringIsReadOrRefusedWithA4xxNeverAnException(SerializerKind kind)
    {
        var reader = Serializers.Reader(kind);
        var forwardReader = new ForwardBodyReader(IngestSerializers.Create(kind));
        Gen.Select(AnyBytes, Gen.Bool).Sample(
            (bytes, ndjson) =>
            {
                var events = new List<IngestEvent>();
                AssertReadOrRefused(reader.Read(bytes, ndjson ? PayloadFormat.Ndjson : PayloadFormat.Json, events), events);
                events.Clear();
                AssertReadOrRefused(forwardReader.Read(bytes, events), events);
            },
            iter: Iterations,
            print: t => Convert.ToBase64String(t.Item1) + (t.Item2 ? " (NDJSON)" : ""));
    }

    private static void AssertReadOrRefused(Problems.IngestProblem? problem, List<IngestEvent> events)
    {
        if (problem is not null)
        {
            Assert.InRange(problem.Status, 400, 499);
            Assert.Empty(events);
            return;
        }

        Assert.NotEmpty(events);
        foreach (var e in events)
        {
            Assert.Null(EventValidator.CheckNormalized(e, EventLocation.WholeBody));
        }
    }

    /// <summary>The event as a client's JSON body, written by Utf8JsonWriter (not by a serializer under test): non-ASCII
    /// escaped as \uXXXX or sent as raw UTF-8.</summary>
    private static byte[] Body(ValidEvent e)
    {
        using var buffer = new PooledBufferWriter();
        using (var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { Encoder = e.AsciiOnly ? JavaScriptEncoder.Default : JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            json.WriteStartObject();
            json.WriteString("type", e.Type.ToString().ToLowerInvariant());
            json.WriteString("source", e.Source);
            json.WriteString("timestamp", e.Timestamp);
            WriteIfSet(json, "job_id", e.JobId);
            WriteIfSet(json, "container_id", e.ContainerId);
            WriteIfSet(json, "status", e.Status);
            WriteIfSet(json, "name", e.Name);
            if (e.Value is { } value)
            {
                json.WriteNumber("value", value);
            }

            WriteIfSet(json, "unit", e.Unit);
            WriteIfSet(json, "level", e.Level);
            WriteIfSet(json, "message", e.Message);
            json.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    private static void WriteIfSet(Utf8JsonWriter json, string name, string? value)
    {
        if (value is not null)
        {
            json.WriteString(name, value);
        }
    }

    private static string MixCase(string level, int mask) =>
        string.Create(level.Length, (level, mask), static (span, state) =>
        {
            for (var i = 0; i < span.Length; i++)
            {
                span[i] = (state.mask >> (i % 6) & 1) == 1 ? char.ToUpperInvariant(state.level[i]) : state.level[i];
            }
        });

    /// <summary>A valid event as the client sends it, with the UTC instant its timestamp names.</summary>
    internal sealed record ValidEvent(
        EventType Type,
        string Source,
        string Timestamp,
        DateTime Utc,
        string? JobId,
        string? ContainerId,
        string? Status,
        string? Name,
        double? Value,
        string? Unit,
        string? Level,
        string? Message,
        bool AsciiOnly)
    {
        /// <summary>What the front-end must make of it (docs/contract.md, Normalisation).</summary>
        public IngestEvent Normalized() => new()
        {
            Type = Type,
            Source = Source.Trim(),
            Timestamp = Utc,
            ReceivedAt = Serializers.ReceivedAt,
            JobId = JobId,
            ContainerId = ContainerId,
            Status = Status,
            Name = Name,
            Value = Value,
            Unit = Unit,
            Level = Level?.ToLowerInvariant(),
            Message = Message,
        };
    }
}
