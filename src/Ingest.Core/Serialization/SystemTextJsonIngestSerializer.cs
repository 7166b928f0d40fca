using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
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
    // The index ReadEventArray gives the array's opening token.
    private const int TheArray = -1;

    // One writer per thread, reset onto each output: Utf8JsonWriter is a class, and a response or forward
    // body per request would otherwise allocate one.
    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    private readonly JsonSerializerOptions _options;
    private readonly JsonTypeInfo<EventDocument> _document;
    private readonly JsonTypeInfo<List<EventDocument?>> _documents;
    private readonly JsonTypeInfo<IngestEvent> _event;
    private readonly JsonReaderOptions _readerOptions;

    private SystemTextJsonIngestSerializer(SerializerKind kind, JsonSerializerOptions options)
    {
        Kind = kind;
        _options = options;
        _options.MakeReadOnly();
        _document = Info<EventDocument>();
        _documents = Info<List<EventDocument?>>();
        _event = Info<IngestEvent>();
        _readerOptions = new JsonReaderOptions
        {
            MaxDepth = options.MaxDepth,
            CommentHandling = options.ReadCommentHandling,
            AllowTrailingCommas = options.AllowTrailingCommas,
        };
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
        // second level of the serializer's write stack, an array it allocates per call (found in the front-end's
        // allocations: docs/notebook/fast-path.md#the-forward-without-polly-2026-11-26). The bytes are the same
        // (SerializerEquivalenceTests).
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
        return JsonShape.StartsWithArray(span) ? ReadEventArray(span) : [Deserialize(span, _event)];
    }

    // The array read here and each element deserialized as a root, as WriteEvents writes them: with the list as the
    // root, every body takes the serializer's read stack a second level, an array of frames it allocates per call (the
    // back-end's largest sampled allocation:
    // docs/notebook/lean-services.md#the-back-ends-read-frames-and-the-lean-profile-isolated-2026-11-27-later). The
    // outcome is the list's: the same events, the same problem kinds, an element's path prefixed with its index
    // ("$[3].type"), content after the array refused, and the same depth limit (the reader counts the array's level) —
    // except that an element nested past it is now refused as malformed, where the list said "not an event" from its
    // first token (BackEndPathTests, the forward-body fuzz target).
    private List<IngestEvent?> ReadEventArray(ReadOnlySpan<byte> utf8Json)
    {
        var reader = new Utf8JsonReader(utf8Json, _readerOptions);
        var events = new List<IngestEvent?>();
        Syntax(ref reader, TheArray); // the '[' StartsWithArray saw
        while (true)
        {
            Syntax(ref reader, events.Count);
            if (reader.TokenType == JsonTokenType.EndArray)
            {
                break;
            }

            try
            {
                events.Add(JsonSerializer.Deserialize(ref reader, _event));
            }
            catch (JsonException ex)
            {
                throw Translate(ex, Element(events.Count));
            }
        }

        // Whitespace may follow the array; a second value may not (placed, as the serializer placed it, after the last element).
        Syntax(ref reader, events.Count, expectEnd: true);
        return events;
    }

    // One token of the array's own structure: the array's start, before element `index`, or what follows the end. The
    // reader refuses what is not JSON by throwing without an inner exception (how the serializer's own refusals are told
    // from a value of the wrong type): a syntax error. The path is made only for a problem: a string per element would
    // undo the saving.
    private static void Syntax(ref Utf8JsonReader reader, int index, bool expectEnd = false)
    {
        bool more;
        try
        {
            more = reader.Read();
        }
        catch (JsonException ex)
        {
            var path = Element(index);
            throw new IngestFormatException(ProblemKind.MalformedJson, $"The JSON is not well-formed at {path} ({Where(ex)}).", path, ex);
        }

        if (more == expectEnd)
        {
            throw new IngestFormatException(ProblemKind.MalformedJson, expectEnd ? "The JSON holds more than one value." : "The JSON ends inside the array.", Element(index));
        }
    }

    private static string Element(int index) => index == TheArray ? "$" : $"$[{index.ToString(CultureInfo.InvariantCulture)}]";

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
    // An element's exception (root "$") is placed under the array's index with pathPrefix.
    private static IngestFormatException Translate(JsonException ex, string pathPrefix = "$")
    {
        var path = string.IsNullOrEmpty(ex.Path) ? pathPrefix : pathPrefix + ex.Path[1..];
        var where = Where(ex);
        return ex.InnerException is JsonException
            ? new IngestFormatException(ProblemKind.MalformedJson, $"The JSON is not well-formed at {path} ({where}).", path, ex)
            : new IngestFormatException(ProblemKind.InvalidField, $"The value at {path} has the wrong JSON type or format ({where}).", path, ex);
    }

    private static string Where(JsonException ex) => $"line {(ex.LineNumber ?? 0) + 1}, byte {(ex.BytePositionInLine ?? 0) + 1}";
}
