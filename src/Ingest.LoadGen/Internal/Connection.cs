using System.Net.Sockets;
using Ingest.Wire.Http1;

namespace Ingest.LoadGen.Internal;

/// <summary>
/// One client connection, owned by exactly one <see cref="Worker"/> (so nothing here is synchronized). It
/// keeps the times of its requests in flight in a ring as deep as the pipeline, in the order the responses
/// will come back, a receive buffer for an incomplete response head, and output the kernel did not take yet.
/// </summary>
internal sealed class Connection
{
    /// <summary>Holds the largest response head the parser accepts; bodies stream through it.</summary>
    public const int ReceiveBufferSize = HttpResponseParser.MaxHeadBytes;

    private readonly long[] _due;
    private readonly long[] _sent;
    private int _head;

    public Connection(int index, int pipeline, bool responsesHaveNoBody)
    {
        Index = index;
        _due = new long[pipeline];
        _sent = new long[pipeline];
        Parser = new HttpResponseParser(responsesHaveNoBody);
    }

    /// <summary>Position in the worker's connection array; the low half of the epoll data word.</summary>
    public int Index { get; }

    /// <summary>Changes at every close, so events still queued for an old socket are recognised and skipped.</summary>
    public uint Generation { get; set; }

    public ConnectionState State { get; set; }

    /// <summary>Connecting: when the attempt started. Backoff: when the next attempt is due.</summary>
    public long StateDeadline { get; set; }

    public Socket? Socket { get; set; }

    public int Fd { get; set; } = -1;

    public bool EverConnected { get; set; }

    public bool InIdleList { get; set; }

    /// <summary>EPOLLOUT is registered because <see cref="Pending"/> holds unsent bytes.</summary>
    public bool WantsWrite { get; set; }

    /// <summary>A send failed: nothing more is written; reading goes on until the stream ends.</summary>
    public bool WriteFailed { get; set; }

    public HttpResponseParser Parser { get; }

    public byte[] Buffer { get; } = new byte[ReceiveBufferSize];

    /// <summary>Start of the bytes in <see cref="Buffer"/> not parsed yet.</summary>
    public int BufferStart { get; set; }

    /// <summary>End of the received bytes in <see cref="Buffer"/>.</summary>
    public int BufferEnd { get; set; }

    /// <summary>Bytes the kernel did not take yet (rare: large bodies or a full socket buffer). Allocated on first need.</summary>
    public byte[]? Pending { get; set; }

    public int PendingStart { get; set; }

    public int PendingEnd { get; set; }

    public bool HasPendingOutput => PendingEnd > PendingStart;

    public int InFlight { get; private set; }

    public int Capacity => _due.Length;

    public ulong EpollData => ((ulong)Generation << 32) | (uint)Index;

    /// <summary>Due time of the oldest request in flight (the next response answers it).</summary>
    public long OldestDue => _due[_head];

    /// <summary>Send time of the oldest request in flight.</summary>
    public long OldestSent => _sent[_head];

    public void Push(long due, long sent)
    {
        var tail = (_head + InFlight) % _due.Length;
        _due[tail] = due;
        _sent[tail] = sent;
        InFlight++;
    }

    /// <summary>Removes the oldest request in flight and returns its due time.</summary>
    public long Pop()
    {
        var due = _due[_head];
        _head = (_head + 1) % _due.Length;
        InFlight--;
        return due;
    }

    /// <summary>Re-stamps request <paramref name="i"/> (0 = oldest) when it is sent again on a new connection.</summary>
    public void Restamp(int i, long due, long sent)
    {
        var slot = (_head + i) % _due.Length;
        _due[slot] = due;
        _sent[slot] = sent;
    }

    public long DueAt(int i) => _due[(_head + i) % _due.Length];

    public void ResetReceive()
    {
        BufferStart = 0;
        BufferEnd = 0;
        Parser.Reset();
    }

    public void AppendPending(ReadOnlySpan<byte> data)
    {
        var needed = PendingEnd - PendingStart + data.Length;
        if (Pending is null || Pending.Length < needed)
        {
            // Deliberate, rare allocation: only when the kernel's send buffer is full.
            var grown = new byte[Math.Max(needed, Math.Max(4096, (Pending?.Length ?? 0) * 2))];
            Pending?.AsSpan(PendingStart, PendingEnd - PendingStart).CopyTo(grown);
            PendingEnd -= PendingStart;
            PendingStart = 0;
            Pending = grown;
        }
        else if (Pending.Length - PendingEnd < data.Length)
        {
            Pending.AsSpan(PendingStart, PendingEnd - PendingStart).CopyTo(Pending);
            PendingEnd -= PendingStart;
            PendingStart = 0;
        }

        data.CopyTo(Pending.AsSpan(PendingEnd));
        PendingEnd += data.Length;
    }

    public void ClearPending()
    {
        PendingStart = 0;
        PendingEnd = 0;
    }
}
