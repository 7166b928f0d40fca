using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;

namespace Ingest.Core.Serialization;

/// <summary>
/// System.Text.Json, with either reflection-based or source-generated metadata. Both run the same code
/// below; what differs is where <see cref="JsonTypeInfo"/> comes from — which is exactly the difference
/// the serializer benchmarks measure.
/// </summary>
internal sealed class SystemTextJsonIngestSerializer : IIngestSerializer
{
    // One writer per thread, reset onto each output: Utf8JsonWriter is a class, and a response or forward
    // body per request would otherwise allocate one.
    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    private readonly JsonSerializerOptions _options;
    private readonly JsonTypeInfo<EventDocument> _document;
    private readonly JsonTypeInfo<List<EventDocument?>> _documents;
    private readonly JsonTypeInfo<List<IngestEvent?>> _eventsIn;
    private readonly JsonTypeInfo<IngestEvent> _event;

    private SystemTextJsonIngestSerializer(SerializerKind kind, JsonSerializerOptions options)
    {
        Kind = kind;
        _options = options;
        _options.MakeReadOnly();
        _document = Info<EventDocument>();
        _documents = Info<List<EventDocument?>>();
        _eventsIn = Info<List<IngestEvent?>>();
        _event = Info<IngestEvent>();
    }

    public SerializerKind Kind { get; }

    public static SystemTextJsonIngestSerializer SourceGenerated(int maxDepth = SerializerLimits.MaxDepth) =>
        new(SerializerKind.SystemTextJsonSourceGen, new JsonSerializerOptions(IngestJsonContext.Default.Options)
        {
            MaxDepth = maxDepth,
            AllowDuplicateProperties = false,
        });

    [RequiresUnreferencedCode("Reflection-based System.Text.Json; use SourceGenerated() when trimming.")]
    [RequiresDynamicCode("Reflection-based System.Text.Json; use SourceGenerated() under Native AOT.")]
    public static SystemTextJsonIngestSerializer Reflection(int maxDepth = SerializerLimits.MaxDepth)
    {
        var options = CreateReflectionOptions();
        options.MaxDepth = maxDepth;
        return new(SerializerKind.SystemTextJson, options);
    }

    /// <summary>The same settings as <see cref="IngestJsonContext"/>, resolved by reflection.</summary>
    [RequiresUnreferencedCode("Reflection-based System.Text.Json.")]
    [RequiresDynamicCode("Reflection-based System.Text.Json.")]
    internal static JsonSerializerOptions CreateReflectionOptions() => new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        MaxDepth = SerializerLimits.MaxDepth,
        // Refused, not last-wins: every serializer treats {"type":"job","type":"log"} the same way (a 400).
        AllowDuplicateProperties = false,
        Converters = { new JsonStringEnumConverter(), new StrictDateTimeConverter() },
        TypeInfoResolver = new DefaultJsonTypeInfoResolver(),
    };

    public EventDocument? ReadDocument(ReadOnlyMemory<byte> utf8Json) => Deserialize(utf8Json.Span, _document);

    public List<EventDocument?> ReadDocuments(ReadOnlyMemory<byte> utf8Json) =>
        Deserialize(utf8Json.Span, _documents) ?? throw NullDocument();

    public EventDocument? ReadInnerDocument(string relaxedJson)
    {
        if (!RelaxedJson.NeedsRewrite(relaxedJson))
        {
            return Deserialize(relaxedJson, _document);
        }

        var buffer = ArrayPool<char>.Shared.Rent(RelaxedJson.MaxStrictLength(relaxedJson.Length));
        try
        {
            if (!RelaxedJson.TryToStrict(relaxedJson, buffer, out var written))
            {
                throw new IngestFormatException(ProblemKind.MalformedJson, "A string in the inner document is not terminated.", "$");
            }

            return Deserialize(buffer.AsSpan(0, written), _document);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(buffer);
        }
    }

    public void WriteEvents(IBufferWriter<byte> output, List<IngestEvent> events)
    {
        // The array written here and each event serialized as a root: with the list as the root, every call takes a
        // second level of the serializer's write stack, an array it allocates per call (about 350 B of a forward's
        // 4.6 KB). The bytes are the same (SerializerEquivalenceTests).
        var writer = WriterOver(output);
        writer.WriteStartArray();
        foreach (var e in events)
        {
            JsonSerializer.Serialize(writer, e, _event);
        }

        writer.WriteEndArray();
        Finish(writer);
    }

    public List<IngestEvent?> ReadEvents(ReadOnlyMemory<byte> utf8Json)
    {
        var span = utf8Json.Span;
        if (JsonShape.StartsWithArray(span))
        {
            return Deserialize(span, _eventsIn) ?? throw NullDocument();
        }

        return [Deserialize(span, _event)];
    }

    public void Write<T>(IBufferWriter<byte> output, T value)
        where T : class => Serialize(output, value, Info<T>());

    public T? Read<T>(ReadOnlyMemory<byte> utf8Json)
        where T : class => Deserialize(utf8Json.Span, Info<T>());

    private JsonTypeInfo<T> Info<T>() => (JsonTypeInfo<T>)_options.GetTypeInfo(typeof(T));

    private static void Serialize<T>(IBufferWriter<byte> output, T value, JsonTypeInfo<T> info)
    {
        var writer = WriterOver(output);
        JsonSerializer.Serialize(writer, value, info);
        Finish(writer);
    }

    private static Utf8JsonWriter WriterOver(IBufferWriter<byte> output)
    {
        var writer = t_writer;
        if (writer is null)
        {
            return t_writer = new Utf8JsonWriter(output);
        }

        writer.Reset(output);
        return writer;
    }

    private static void Finish(Utf8JsonWriter writer)
    {
        writer.Flush();
        writer.Reset();
    }

    private static T? Deserialize<T>(ReadOnlySpan<byte> utf8Json, JsonTypeInfo<T> info)
    {
        try
        {
            return JsonSerializer.Deserialize(utf8Json, info);
        }
        catch (JsonException ex)
        {
            throw Translate(ex);
        }
    }

    private static T? Deserialize<T>(ReadOnlySpan<char> json, JsonTypeInfo<T> info)
    {
        try
        {
            return JsonSerializer.Deserialize(json, info);
        }
        catch (JsonException ex)
        {
            throw Translate(ex);
        }
    }

    private static IngestFormatException NullDocument() =>
        new(ProblemKind.InvalidField, "Expected an array, found null.", "$");

    // System.Text.Json reports a syntax error as a JsonException wrapping its (internal) reader exception,
    // itself a JsonException; a value of the wrong type or format is a JsonException wrapping nothing, or the
    // InvalidOperationException/FormatException its converter threw.
    private static IngestFormatException Translate(JsonException ex)
    {
        var path = string.IsNullOrEmpty(ex.Path) ? "$" : ex.Path;
        var where = $"line {(ex.LineNumber ?? 0) + 1}, byte {(ex.BytePositionInLine ?? 0) + 1}";
        return ex.InnerException is JsonException
            ? new IngestFormatException(ProblemKind.MalformedJson, $"The JSON is not well-formed at {path} ({where}).", path, ex)
            : new IngestFormatException(ProblemKind.InvalidField, $"The value at {path} has the wrong JSON type or format ({where}).", path, ex);
    }
}
