using System.Buffers;
using Ingest.Core.Events;

namespace Ingest.Core.Serialization;

/// <summary>
/// Everything Ingest reads or writes as JSON, behind one interface so the serializer is a switch
/// (<c>Ingest:Serializer</c>) and each implementation does the same work. Readers throw
/// <see cref="IngestFormatException"/> for input that is not well-formed or has a member of the wrong type.
/// </summary>
public interface IIngestSerializer
{
    SerializerKind Kind { get; }

    /// <summary>Reads one incoming event object (classic or typed). Null when the document is JSON <c>null</c>.</summary>
    EventDocument? ReadDocument(ReadOnlyMemory<byte> utf8Json);

    /// <summary>Reads a JSON array of incoming event objects (a batch).</summary>
    List<EventDocument?> ReadDocuments(ReadOnlyMemory<byte> utf8Json);

    /// <summary>Reads a classic payload's inner document, which may use single-quoted strings.</summary>
    EventDocument? ReadInnerDocument(string relaxedJson);

    /// <summary>Writes the forward body: a JSON array of normalised events.</summary>
    void WriteEvents(IBufferWriter<byte> output, List<IngestEvent> events);

    /// <summary>Reads a forward body: a JSON array of normalised events, or a single one.</summary>
    List<IngestEvent?> ReadEvents(ReadOnlyMemory<byte> utf8Json);

    /// <summary>Writes a response body (<see cref="Contract"/> types and problems).</summary>
    void Write<T>(IBufferWriter<byte> output, T value)
        where T : class;

    /// <summary>Reads a response body written by <see cref="Write{T}"/>.</summary>
    T? Read<T>(ReadOnlyMemory<byte> utf8Json)
        where T : class;
}
