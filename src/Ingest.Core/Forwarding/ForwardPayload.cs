using System.Buffers;
using Ingest.Core.Events;
using Ingest.Core.Serialization;

namespace Ingest.Core.Forwarding;

/// <summary>
/// One forward as every attempt sends it: its events, written as JSON wherever the sender needs the bytes, and its
/// Idempotency-Key, shared by every attempt and every back-end.
/// </summary>
/// <remarks>
/// The body is not serialized ahead of the send: a forward's bytes would otherwise have to be held in a buffer of their
/// own for the whole round trip, one per request in flight, which the shared array pool cannot keep for hundreds of
/// them (docs/notebook/fast-path-at-300-connections.md). LoopDirect writes the body straight into the buffer of the
/// back-end connection that carries the attempt; the HttpClient strategies into a pooled buffer per send. The key stays
/// a <see cref="Guid"/> until a sender needs text: LoopDirect formats it into the request's bytes, never as a string.
/// </remarks>
public readonly struct ForwardPayload(List<IngestEvent> events, IIngestSerializer serializer, Guid key)
{
    /// <summary>Characters of the key as it travels (<see cref="Guid"/> format "N": 32 hexadecimal digits).</summary>
    public const int KeyLength = 32;

    public List<IngestEvent> Events => events;

    public Guid Key => key;

    /// <summary>Writes the forward's JSON body to <paramref name="output"/>; the same bytes on every call.</summary>
    public void WriteBody(IBufferWriter<byte> output) => serializer.WriteEvents(output, events);

    /// <summary>Writes the key as ASCII into <paramref name="destination"/> (at least <see cref="KeyLength"/> bytes).</summary>
    public int WriteKey(Span<byte> destination)
    {
        key.TryFormat(destination, out var written, "N");
        return written;
    }

    /// <summary>The key as a string, for APIs that take header values as text (a string per call).</summary>
    public string KeyText() => key.ToString("N");
}
