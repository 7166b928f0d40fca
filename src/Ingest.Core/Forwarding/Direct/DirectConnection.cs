using System.Buffers;
using System.Buffers.Text;
using System.Runtime.CompilerServices;
using System.Threading.Tasks.Sources;
using Ingest.Core.Threading;
using Ingest.Wire.Http1;

namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// One keep-alive HTTP/1.1 connection to a back-end, for <see cref="ClientStrategy.LoopDirect"/>: a request is written
/// whole in one write (head and body), and the answer read into the connection's own buffer, of which the forwarder
/// needs only the status and a 503's Retry-After; the body is framed (Content-Length, chunked, or up to the close) and
/// skipped by the one HTTP/1.1 response parser (<see cref="HttpResponseParser"/>, one per connection: framing allocates
/// nothing). Any answer the parser cannot frame with certainty fails the exchange with
/// <see cref="HttpRequestError.InvalidResponse"/> and the connection is not used again.
/// </summary>
/// <remarks>
/// <para>The request is built in the connection's own buffer, the body serialized straight into it: a forward holds no
/// buffer of its own while it is in flight, so the memory a forward needs belongs to the connection carrying it and is
/// reused by every exchange on it, whatever the number of requests in flight
/// (docs/notebook/fast-path-at-300-connections.md). The buffer is the serializer's <see cref="IBufferWriter{T}"/> while
/// the body is written, and grows, once per connection, to the largest request it has carried.</para>
/// <para>Exchanges may be pipelined (RFC 9112 §9.3): a request is written as soon as the one before it is, and the
/// answers, which come in the order of the requests, are read by the oldest exchange in flight; whatever else a read
/// brought is framed at once and handed to the exchanges behind it, in order, so one read can complete many forwards.
/// The pool pipelines only at its connection limit (<see cref="DirectConnectionPool"/>). A failure fails every exchange
/// in flight on the connection: those behind the one that failed get a transient error (their requests may have been
/// read, so the forward's Idempotency-Key makes a retry safe), or <see cref="StaleConnectionException"/> when the
/// back-end had closed the kept connection before answering anything.</para>
/// </remarks>
internal sealed class DirectConnection(Stream stream) : IAsyncDisposable, IBufferWriter<byte>
{
    // "\r\nContent-Length: ", at most 10 digits, "\r\n\r\n": what follows the key before the body.
    private const int LengthLineBytes = 18;
    private const int MaxLengthDigits = 10;

    private readonly CancellationTokenSource _abort = new();
    private readonly HttpResponseParser _parser = new();
    private readonly SemaphoreSlim _writing = new(1, 1);
    private readonly Lock _lock = new();

    // The exchanges in flight, in the order their requests were written: the first reads the answers.
    private readonly Queue<Exchange> _inFlight = new();
    private readonly Stack<Exchange> _spare = new();
    private byte[] _write = new byte[2048];
    private int _written;
    private byte[] _read = new byte[1024];
    private int _start;
    private int _end;
    private bool _received;
    private bool _keepAlive = true;
    private bool _retired;
    private bool _handingOver;
    private Exception? _failed;
    private int _aborted;

    /// <summary>When the connection was opened (<see cref="Environment.TickCount64"/>), for the pool's lifetime.</summary>
    public long OpenedAt { get; } = Environment.TickCount64;

    /// <summary>Whether the connection may carry another exchange: nothing failed, the back-end keeps it alive, no
    /// bytes came that nobody asked for, and no deadline aborted it.</summary>
    public bool Reusable => _failed is null && _keepAlive && !_retired && Volatile.Read(ref _aborted) == 0;

    /// <summary>Whether <see cref="AbortIfDue"/> cancelled the exchanges in flight on it.</summary>
    public bool Aborted => Volatile.Read(ref _aborted) != 0;

    /// <summary>How many exchanges completed on it.</summary>
    public int Exchanges { get; private set; }

    /// <summary>Exchanges its pool has handed it and not yet taken back (the pool's count, kept under its lock).</summary>
    internal int Held { get; set; }

    /// <summary>Whether it waits in its pool's idle stack (the pool's flag, kept under its lock).</summary>
    internal bool Idle { get; set; }

    /// <summary>
    /// Sends <paramref name="head"/> (request line and fixed headers, ending with the name of the last header) followed
    /// by the key of <paramref name="payload"/>, the Content-Length of its body and the body, and reads the answer.
    /// The exchange is due at <paramref name="deadline"/> (<see cref="Environment.TickCount64"/>; 0 for never) or, while
    /// it is the only one in flight, when <paramref name="caller"/> is cancelled; whoever keeps the connection calls
    /// <see cref="AbortIfDue"/> on time (the pool's sweep), which cancels every exchange in flight where it waits.
    /// </summary>
    /// <exception cref="StaleConnectionException">A connection used before was closed by the back-end before any byte
    /// of this answer: the request can be sent again on a new connection.</exception>
    /// <exception cref="HttpRequestException">The connection failed or the answer was not HTTP/1.1 it can frame.</exception>
    /// <exception cref="OperationCanceledException">The exchange was aborted by <see cref="AbortIfDue"/>.</exception>
    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    public async ValueTask<BackEndReply> ExchangeAsync(ReadOnlyMemory<byte> head, ForwardPayload payload, long deadline = 0, CancellationToken caller = default)
    {
        var cancellationToken = _abort.Token;
        Exchange exchange;
        bool reads;
        await _writing.WaitAsync(CancellationToken.None);
        try
        {
            lock (_lock)
            {
                if (_failed is { } failed)
                {
                    throw Behind(failed);
                }

                exchange = _spare.TryPop(out var spare) ? spare : new Exchange();
                reads = _inFlight.Count == 0 && !_handingOver;
                exchange.Start(deadline, waits: !reads, caller);
                _inFlight.Enqueue(exchange);
            }

            try
            {
                var (offset, length) = WriteRequest(head.Span, payload);
                await stream.WriteAsync(_write.AsMemory(offset, length), cancellationToken);
            }
            catch (Exception error)
            {
                // Nothing of this exchange's answer can have come.
                throw Fail(exchange, Map(error, received: false));
            }
        }
        finally
        {
            _writing.Release();
        }

        BackEndReply reply;
        if (reads)
        {
            _parser.Reset();
            _received = false;
            if (_start == _end)
            {
                _start = _end = 0;
            }
        }
        else
        {
            // Behind others: the reader hands over this exchange's answer, or its turn to read (the answer not yet whole).
            try
            {
                reply = await exchange.Wait();
            }
            catch
            {
                Recycle(exchange);
                throw;
            }

            if (reply.Status != 0)
            {
                Recycle(exchange);
                return reply;
            }
        }

        try
        {
            // Almost always the whole answer comes in the first read: framed here, without the slow path's awaits.
            reply = TryReadWhole(out var whole) || (_end < _read.Length && Took(await stream.ReadAsync(_read.AsMemory(_end), cancellationToken)) && TryReadWhole(out whole))
                ? whole
                : await ReadResponseAsync(cancellationToken);
        }
        catch (Exception error)
        {
            throw Fail(exchange, Map(error, _received));
        }

        Exchanges++;
        HandOver(exchange);
        return reply;
    }

    /// <summary>Whether an exchange in flight is past its deadline, or the only one in flight and its caller has gone:
    /// if so, every exchange on the connection is cancelled where it waits and the connection is not used again (call
    /// it outside any lock: an exchange may continue on this thread). A caller that goes away while others share the
    /// connection leaves its exchange to its deadline: its request is sent, and the answer comes in its turn.</summary>
    public bool AbortIfDue(long now)
    {
        var due = false;
        lock (_lock)
        {
            foreach (var exchange in _inFlight)
            {
                due |= (exchange.Deadline > 0 && now >= exchange.Deadline) || (_inFlight.Count == 1 && exchange.Caller.IsCancellationRequested);
            }
        }

        if (!due || Interlocked.Exchange(ref _aborted, 1) != 0)
        {
            return false;
        }

        _abort.Cancel();
        return true;
    }

    /// <summary>Takes the connection out of use: exchanges in flight go on, no new one should start on it.</summary>
    public void Retire() => _retired = true;

    // The abort source is not disposed: it has no timer and no linked token to release, and the deadline sweep may
    // still be cancelling it from its own thread as the exchange it aborted closes the connection.
    public ValueTask DisposeAsync() => stream.DisposeAsync();

    /// <summary>The reader's answer is in: answers behind it that are already whole in the buffer go to their exchanges,
    /// in order, and the first exchange whose answer is not whole yet reads next.</summary>
    private void HandOver(Exchange reader)
    {
        Exchange? next;
        lock (_lock)
        {
            if (_inFlight.TryPeek(out var front) && front == reader)
            {
                _inFlight.Dequeue();
            }

            next = NextLocked();
        }

        Recycle(reader);
        while (next is not null)
        {
            _parser.Reset();
            _received = false;
            BackEndReply answer;
            try
            {
                if (!_keepAlive)
                {
                    // The back-end closes after the answer just read: it read nothing behind it.
                    throw new StaleConnectionException(null);
                }

                if (!TryReadWhole(out answer))
                {
                    bool turn;
                    lock (_lock)
                    {
                        _handingOver = false;
                        turn = next.Claim();
                    }

                    if (turn)
                    {
                        next.Complete(default);
                    }

                    return;
                }
            }
            catch (Exception error) when (error is HttpRequestException or StaleConnectionException)
            {
                // Its own answer failed it; those behind it fail with it.
                FailAll(error, reader: null, own: next);
                return;
            }

            Exchanges++;
            bool handed;
            lock (_lock)
            {
                // Off the queue before its caller resumes, which may start another exchange on this connection.
                _inFlight.Dequeue();
                handed = next.Claim();
            }

            if (handed)
            {
                next.Complete(answer);
            }

            lock (_lock)
            {
                // A failure meanwhile (FailAll) emptied the queue and ended the hand-over.
                next = _failed is null ? NextLocked() : null;
            }
        }
    }

    // The exchange at the front, which this hand-over serves next; with none left, bytes beyond the answers are nothing
    // this client asked for, and the connection's framing can no longer be trusted.
    private Exchange? NextLocked()
    {
        if (_inFlight.TryPeek(out var next))
        {
            _handingOver = true;
            return next;
        }

        _handingOver = false;
        _retired |= _start != _end;
        return null;
    }

    /// <summary>An exchange failed: every other one in flight fails with it; returns the error for its own caller.</summary>
    private Exception Fail(Exchange own, Exception error)
    {
        FailAll(error, own);
        Recycle(own);
        return error;
    }

    private void FailAll(Exception cause, Exchange? reader, Exchange? own = null)
    {
        Exchange[] behind;
        lock (_lock)
        {
            _failed ??= cause;
            _handingOver = false;
            behind = _inFlight.Where(e => e != reader && e.Claim()).ToArray();
            _inFlight.Clear();
        }

        foreach (var exchange in behind)
        {
            exchange.Fail(exchange == own ? cause : Behind(cause));
        }
    }

    // What a failure of the stream means for this exchange: a kept connection the back-end had closed before any byte of
    // the answer is stale (the request can go again); anything else failed it.
    private Exception Map(Exception error, bool received) => error switch
    {
        HttpRequestException or StaleConnectionException or OperationCanceledException => error,
        IOException or ObjectDisposedException or InvalidOperationException when Exchanges > 0 && !received => new StaleConnectionException(error),
        IOException or ObjectDisposedException or InvalidOperationException => new HttpRequestException(HttpRequestError.Unknown, $"The connection to the back-end failed: {error.Message}", error),
        _ => error,
    };

    // The error of an exchange behind one that failed: its request may have been read, so it is not stale unless the
    // back-end had answered nothing at all.
    private static Exception Behind(Exception cause) => cause switch
    {
        StaleConnectionException => new StaleConnectionException(cause),
        OperationCanceledException => new OperationCanceledException("Another exchange on the connection was aborted.", cause),
        _ => new HttpRequestException(HttpRequestError.Unknown, $"The connection to the back-end failed before this forward's answer: {cause.Message}", cause),
    };

    private void Recycle(Exchange exchange)
    {
        lock (_lock)
        {
            _spare.Push(exchange);
        }
    }

    /// <summary>One exchange in flight: its deadline and caller for the sweep, and, when it waits behind others, where
    /// the reader hands it its answer (or its turn: a reply of status 0) or the connection's failure.</summary>
    private sealed class Exchange : IValueTaskSource<BackEndReply>
    {
        private ManualResetValueTaskSourceCore<BackEndReply> _core;
        private bool _waits;

        public long Deadline { get; private set; }

        public CancellationToken Caller { get; private set; }

        public void Start(long deadline, bool waits, CancellationToken caller)
        {
            Deadline = deadline;
            Caller = caller;
            _core.Reset();
            _waits = waits;
        }

        public ValueTask<BackEndReply> Wait() => new(this, _core.Version);

        /// <summary>Whether it still waits to be signalled; it no longer does after this (under the connection's lock).</summary>
        public bool Claim()
        {
            var waits = _waits;
            _waits = false;
            return waits;
        }

        public void Complete(BackEndReply reply) => _core.SetResult(reply);

        public void Fail(Exception error) => _core.SetException(error);

        public BackEndReply GetResult(short token) => _core.GetResult(token);

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);
    }

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
        _keepAlive = head.KeepAlive;
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
