using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using System.Text;
using Ingest.Core.Buffers;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Newtonsoft.Json;
using Newtonsoft.Json.Converters;
using Newtonsoft.Json.Serialization;

namespace Ingest.Core.Serialization;

/// <summary>
/// Newtonsoft.Json, configured as the 2016 original would have been (it reads single-quoted strings by
/// itself) but with strict value types, so the same typed event is accepted or rejected exactly as the
/// System.Text.Json serializers do. Newtonsoft's laxer <em>syntax</em> (comments, unquoted names, single
/// quotes in the outer document) is kept: that leniency is part of what the original relied on.
/// </summary>
internal sealed class NewtonsoftIngestSerializer : IIngestSerializer
{
    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private readonly JsonSerializer _serializer;
    private readonly int _maxDepth;

    [RequiresUnreferencedCode("Newtonsoft.Json reflects over the serialized types; not for trimmed or Native AOT apps.")]
    [RequiresDynamicCode("Newtonsoft.Json reflects over the serialized types; not for trimmed or Native AOT apps.")]
    public NewtonsoftIngestSerializer(int maxDepth = SerializerLimits.MaxDepth)
    {
        _maxDepth = maxDepth;
        _serializer = JsonSerializer.Create(new JsonSerializerSettings
        {
            ContractResolver = new DefaultContractResolver { NamingStrategy = new SnakeCaseNamingStrategy() },
            NullValueHandling = NullValueHandling.Ignore,
            MaxDepth = maxDepth,
            // Timestamps stay text until the validator parses them: no string is turned into a date behind our back.
            DateParseHandling = DateParseHandling.None,
            DateTimeZoneHandling = DateTimeZoneHandling.Utc,
            FloatParseHandling = FloatParseHandling.Double,
            // "$type", "$id" and "$ref" are ordinary (unknown, so ignored) members here, never instructions: reading
            // them as metadata threw a NullReferenceException from inside Newtonsoft on {"$type":{"":...}} (found by
            // fuzzing), a 500 for a client's bad JSON.
            MetadataPropertyHandling = MetadataPropertyHandling.Ignore,
            Converters =
            {
                new StringEnumConverter(),
                StrictConverters.String,
                StrictConverters.Double,
                StrictConverters.DateTime,
            },
        });
    }

    public SerializerKind Kind => SerializerKind.Newtonsoft;

    public EventDocument? ReadDocument(ReadOnlyMemory<byte> utf8Json) => Deserialize<EventDocument>(utf8Json);

    public List<EventDocument?> ReadDocuments(ReadOnlyMemory<byte> utf8Json) =>
        Deserialize<List<EventDocument?>>(utf8Json) ?? throw NullDocument();

    public EventDocument? ReadInnerDocument(string relaxedJson) => Deserialize<EventDocument>(() => new StringReader(relaxedJson));

    public void WriteEvents(IBufferWriter<byte> output, List<IngestEvent> events) => Write(output, events);

    public List<IngestEvent?> ReadEvents(ReadOnlyMemory<byte> utf8Json)
    {
        if (JsonShape.StartsWithArray(utf8Json.Span))
        {
            return Deserialize<List<IngestEvent?>>(utf8Json) ?? throw NullDocument();
        }

        return [Deserialize<IngestEvent>(utf8Json)];
    }

    public void Write<T>(IBufferWriter<byte> output, T value)
        where T : class
    {
        // Newtonsoft writes text: the output is UTF-16 first, then encoded. That extra step is part of
        // its cost and deliberately not hidden.
        using var stream = new BufferWriterStream(output);
        using var text = new StreamWriter(stream, Utf8, bufferSize: 1024, leaveOpen: true);
        using (var writer = new JsonTextWriter(text) { CloseOutput = false })
        {
            _serializer.Serialize(writer, value, typeof(T));
        }
    }

    public T? Read<T>(ReadOnlyMemory<byte> utf8Json)
        where T : class => Deserialize<T>(utf8Json);

    private T? Deserialize<T>(ReadOnlyMemory<byte> utf8Json) => Deserialize<T>(() =>
    {
        // Newtonsoft reads text through a TextReader; a MemoryStream over the pooled body avoids a copy.
        var stream = MemoryMarshal.TryGetArray(utf8Json, out var segment)
            ? new MemoryStream(segment.Array!, segment.Offset, segment.Count, writable: false)
            : new MemoryStream(utf8Json.ToArray(), writable: false);
        return new StreamReader(stream, Utf8, detectEncodingFromByteOrderMarks: false);
    });

    // Takes a factory, not a reader: telling a syntax error from a type error may need a second read.
    private T? Deserialize<T>(Func<TextReader> open)
    {
        try
        {
            using var text = open();
            using var reader = new DuplicateRejectingReader(text) { MaxDepth = _maxDepth };
            var value = _serializer.Deserialize<T>(reader);

            // Newtonsoft stops after the first value; strict JSON allows only whitespace after it.
            if (reader.Read())
            {
                throw new IngestFormatException(ProblemKind.MalformedJson, "Unexpected content after the JSON value.", "$");
            }

            return value;
        }
        catch (StrictConverters.WrongTypeException ex)
        {
            var path = NormalizePath(ex.Path);
            throw new IngestFormatException(ProblemKind.InvalidField, $"The value at {path} {ex.Message}.", path, ex);
        }
        catch (JsonReaderException ex)
        {
            var path = NormalizePath(ex.Path);
            throw new IngestFormatException(ProblemKind.MalformedJson, $"The JSON is not well-formed at {path} (line {ex.LineNumber}, position {ex.LinePosition}).", path, ex);
        }
        catch (JsonSerializationException ex)
        {
            // Newtonsoft reports a truncated document as a serialization error; only a syntax check tells them apart.
            var path = NormalizePath(ex.Path);
            throw IsWellFormed(open)
                ? new IngestFormatException(ProblemKind.InvalidField, $"The value at {path} has the wrong JSON type or format.", path, ex)
                : new IngestFormatException(ProblemKind.MalformedJson, $"The JSON is not well-formed near {path}.", path, ex);
        }
        catch (DecoderFallbackException ex)
        {
            throw new IngestFormatException(ProblemKind.MalformedJson, "The body is not valid UTF-8.", "$", ex);
        }
    }

    private bool IsWellFormed(Func<TextReader> open)
    {
        try
        {
            using var text = open();
            using var reader = new JsonTextReader(text) { MaxDepth = _maxDepth };
            while (reader.Read())
            {
            }

            return reader.Depth == 0 && reader.TokenType != JsonToken.PropertyName;
        }
        catch (JsonReaderException)
        {
            return false;
        }
        catch (DecoderFallbackException)
        {
            return false;
        }
    }

    private static IngestFormatException NullDocument() =>
        new(ProblemKind.InvalidField, "Expected an array, found null.", "$");

    // Newtonsoft paths are "value" or "[3].value"; the contract's are "$.value" and "$[3].value".
    internal static string NormalizePath(string? path) => path switch
    {
        null or "" => "$",
        _ when path[0] == '[' => "$" + path,
        _ => "$." + path,
    };
}
