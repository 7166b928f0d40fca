using System.Buffers;
using System.Buffers.Text;
using System.Runtime.CompilerServices;
using Ingest.Core.Threading;
using Ingest.Wire.Http1;

namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// One keep-alive HTTP/1.1 connection to a back-end, for <see cref="ClientStrategy.LoopDirect"/>: a request is written
/// whole in one write (head and body), and the answer read into the connection's own buffer, of which the forwarder
/// needs only the status and a 503's Retry-After; the body is framed (Content-Length, chunked, or up to the close) and
/// skipped by the one HTTP/1.1 response parser (<see cref="HttpResponseParser"/>, one per connection: framing allocates
/// nothing). One exchange at a time, no pipelining. Any answer the parser cannot frame with certainty fails the exchange
/// with <see cref="HttpRequestError.InvalidResponse"/> and the connection is not used again.
/// </summary>
/// <remarks>
/// The request is built in the connection's own buffer, the body serialized straight into it: a forward holds no buffer
/// of its own while it is in flight, so the memory a forward needs belongs to the connection carrying it and is reused
/// by every exchange on it, whatever the number of requests in flight
/// (docs/notebook/fast-path-at-300-connections.md). The buffer is the serializer's <see cref="IBufferWriter{T}"/> while
/// the body is written, and grows, once per connection, to the largest request it has carried.
/// </remarks>
internal sealed class DirectConnection(Stream stream) : IAsyncDisposable, IBufferWriter<byte>
{
    // "\r\nContent-Length: ", at most 10 digits, "\r\n\r\n": what follows the key before the body.
    private const int LengthLineBytes = 18;
    private const int MaxLengthDigits = 10;

    private readonly CancellationTokenSource _abort = new();
    private readonly HttpResponseParser _parser = new();
    private byte[] _write = new byte[2048];
    private int _written;
    private byte[] _read = new byte[1024];
    private int _start;
    private int _end;
    private bool _received;
    private long _deadline;
    private CancellationToken _caller;

    /// <summary>When the connection was opened (<see cref="Environment.TickCount64"/>), for the pool's lifetime.</summary>
    public long OpenedAt { get; } = Environment.TickCount64;

    /// <summary>Whether the last exchange left the connection ready for the next one.</summary>
    public bool Reusable { get; private set; }

    /// <summary>How many exchanges completed on it.</summary>
    public int Exchanges { get; private set; }

    /// <summary>
    /// Sends <paramref name="head"/> (request line and fixed headers, ending with the name of the last header) followed
    /// by the key of <paramref name="payload"/>, the Content-Length of its body and the body, and reads the answer.
    /// The exchange has no deadline of its own: whoever keeps it calls <see cref="Arm"/> before and <see cref="Disarm"/>
    /// after, and <see cref="AbortIfDue"/> on time (the pool's sweep), which cancels the exchange where it waits.
    /// </summary>
    /// <exception cref="StaleConnectionException">A connection used before was closed by the back-end before any byte
    /// of an answer: the request can be sent again on a new connection.</exception>
    /// <exception cref="HttpRequestException">The connection failed or the answer was not HTTP/1.1 it can frame.</exception>
    /// <exception cref="OperationCanceledException">The exchange was aborted by <see cref="AbortIfDue"/>.</exception>
    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    public async ValueTask<BackEndReply> ExchangeAsync(ReadOnlyMemory<byte> head, ForwardPayload payload)
    {
        Reusable = false;
        _received = false;
        _start = _end = 0;
        _parser.Reset();
        var (offset, length) = WriteRequest(head.Span, payload);
        var cancellationToken = _abort.Token;
        try
        {
            await stream.WriteAsync(_write.AsMemory(offset, length), cancellationToken);

            // Almost always the whole answer comes in the first read: framed here, without the slow path's awaits.
            var reply = Took(await stream.ReadAsync(_read, cancellationToken)) && TryReadWhole(out var whole)
                ? whole
                : await ReadResponseAsync(cancellationToken);
            Exchanges++;
            return reply;
        }
        catch (Exception error) when (error is IOException or ObjectDisposedException or InvalidOperationException)
        {
            throw Exchanges > 0 && !_received
                ? new StaleConnectionException(error)
                : new HttpRequestException(HttpRequestError.Unknown, $"The connection to the back-end failed: {error.Message}", error);
        }
    }

    /// <summary>Starts an exchange's watch: it is due at <paramref name="deadline"/> (<see cref="Environment.TickCount64"/>)
    /// or when <paramref name="caller"/> is cancelled, whichever comes first.</summary>
    public void Arm(long deadline, CancellationToken caller)
    {
        _caller = caller;
        Volatile.Write(ref _deadline, deadline);
    }

    /// <summary>Ends the watch; false if <see cref="AbortIfDue"/> got there first (the connection is then unusable).</summary>
    public bool Disarm() => Interlocked.Exchange(ref _deadline, 0) != -1;

    /// <summary>Whether an armed exchange is past its deadline or its caller has gone: if so, the watch is ended and the
    /// exchange cancelled where it waits (call it outside any lock: the exchange may continue on this thread).</summary>
    public bool AbortIfDue(long now)
    {
        var deadline = Volatile.Read(ref _deadline);
        if (deadline <= 0 || (now < deadline && !_caller.IsCancellationRequested)
            || Interlocked.CompareExchange(ref _deadline, -1, deadline) != deadline)
        {
            return false;
        }

        Reusable = false;
        _abort.Cancel();
        return true;
    }

    // The abort source is not disposed: it has no timer and no linked token to release, and the deadline sweep may
    // still be cancelling it from its own thread as the exchange it aborted closes the connection.
    public ValueTask DisposeAsync() => stream.DisposeAsync();

    /// <summary>Builds the request in the write buffer and returns where it starts and how long it is. The body is
    /// serialized first, after room for the longest head; the head then goes right before it, once the body's length
    /// is known, so the request is one contiguous write and the body is never copied.</summary>
    private (int Offset, int Length) WriteRequest(ReadOnlySpan<byte> head, ForwardPayload payload)
    {
        var bodyStart = head.Length + ForwardPayload.KeyLength + LengthLineBytes + MaxLengthDigits + 4;
        if (_write.Length <= bodyStart)
        {
            _write = new byte[bodyStart * 2];
        }

        _written = bodyStart;
        payload.WriteBody(this);
        var bodyLength = _written - bodyStart;

        Span<byte> digits = stackalloc byte[MaxLengthDigits];
        Utf8Formatter.TryFormat(bodyLength, digits, out var digitCount);
        var offset = bodyStart - (head.Length + ForwardPayload.KeyLength + LengthLineBytes + digitCount + 4);
        var span = _write.AsSpan(offset, bodyStart - offset);
        head.CopyTo(span);
        var at = head.Length;
        at += payload.WriteKey(span[at..]);
        "\r\nContent-Length: "u8.CopyTo(span[at..]);
        at += LengthLineBytes;
        digits[..digitCount].CopyTo(span[at..]);
        at += digitCount;
        "\r\n\r\n"u8.CopyTo(span[at..]);
        return (offset, _written - offset);
    }

    void IBufferWriter<byte>.Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (_written + count > _write.Length)
        {
            throw new InvalidOperationException("Advanced past the end of the buffer.");
        }

        _written += count;
    }

    Memory<byte> IBufferWriter<byte>.GetMemory(int sizeHint)
    {
        EnsureWritable(sizeHint);
        return _write.AsMemory(_written);
    }

    Span<byte> IBufferWriter<byte>.GetSpan(int sizeHint)
    {
        EnsureWritable(sizeHint);
        return _write.AsSpan(_written);
    }

    /// <summary>Room for <paramref name="sizeHint"/> more bytes of body (the serializer asks for up to 4 KB at a time);
    /// the buffer grows by doubling and stays grown for the connection's next requests.</summary>
    private void EnsureWritable(int sizeHint)
    {
        var needed = Math.Max(sizeHint, 1);
        if (_write.Length - _written < needed)
        {
            Array.Resize(ref _write, Math.Max(_write.Length * 2, _written + needed));
        }
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private async ValueTask<BackEndReply> ReadResponseAsync(CancellationToken cancellationToken)
    {
        BackEndReply reply;
        while (!TryReadWhole(out reply))
        {
            if (!await TryFillAsync(cancellationToken))
            {
                if (!_parser.CompleteAtEndOfStream())
                {
                    throw !_received && Exchanges > 0
                        ? new StaleConnectionException(null)
                        : new HttpRequestException(HttpRequestError.ResponseEnded, "The back-end closed the connection before its answer was complete.");
                }

                // A body delimited by the close: the answer is whole, and the connection gone.
                return Reply();
            }
        }

        return reply;
    }

    /// <summary>Frames what the buffer holds: true with the reply once the answer is whole, false while more must be
    /// read; interim answers are skipped, and an answer it cannot frame with certainty fails the exchange.</summary>
    private bool TryReadWhole(out BackEndReply reply)
    {
        reply = default;
        while (true)
        {
            var status = _parser.Parse(_read.AsSpan(_start, _end - _start), out var consumed);
            _start += consumed;
            switch (status)
            {
                case ParseStatus.Complete:
                    reply = Reply();
                    return true;
                case ParseStatus.Error:
                    throw Invalid(_parser.Error!);
                case ParseStatus.NeedMore:
                    return false;
            }
        }
    }

    private BackEndReply Reply()
    {
        var head = _parser.Head;

        // Bytes beyond the answer are nothing this client asked for: the connection's framing can no longer be trusted.
        Reusable = head.KeepAlive && _start == _end;
        return new BackEndReply(head.StatusCode, head.RetryAfterSeconds);
    }

    /// <summary>Reads more into the buffer, keeping the unread bytes; false at the end of the stream.</summary>
    private async ValueTask<bool> TryFillAsync(CancellationToken cancellationToken)
    {
        if (_start == _end)
        {
            _start = _end = 0;
        }
        else if (_end == _read.Length && _start > 0)
        {
            Buffer.BlockCopy(_read, _start, _read, 0, _end - _start);
            _end -= _start;
            _start = 0;
        }

        // Full of one unfinished head or line: the parser refuses those before they outgrow its limit, so the buffer grows
        // to that at most, once per connection.
        if (_end == _read.Length)
        {
            Array.Resize(ref _read, Math.Min(_read.Length * 2, HttpResponseParser.MaxHeadBytes));
        }

        return Took(await stream.ReadAsync(_read.AsMemory(_end), cancellationToken));
    }

    /// <summary>Counts <paramref name="read"/> bytes just read after the buffered ones; false at the end of the stream.</summary>
    private bool Took(int read)
    {
        if (read == 0)
        {
            return false;
        }

        _received = true;
        _end += read;
        return true;
    }

    internal static HttpRequestException Invalid(string why) =>
        new(HttpRequestError.InvalidResponse, $"The back-end's answer is not HTTP/1.1 this client can read: {why}.");
}

/// <summary>A reused connection the back-end had closed (its keep-alive timeout, a restart) before this request's
/// answer began: nothing of the request was answered, so it goes again on a new connection.</summary>
internal sealed class StaleConnectionException(Exception? inner)
    : Exception("The back-end closed a pooled connection before answering.", inner);
