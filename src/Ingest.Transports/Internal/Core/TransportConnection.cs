using System.IO.Pipelines;
using System.Net;
using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// A Kestrel connection over a backend's <see cref="LoopSocket"/>, the same for every backend. Two pumps move
/// bytes between the socket and two pipes:
/// <list type="bullet">
/// <item>receive: socket → input pipe; it stops reading while the pipe holds MaxReadBufferSize unread bytes
/// (its flush waits) and resumes when the application has consumed half of it;</item>
/// <item>send: output pipe → socket; a send completes once the kernel took every byte, and the application's
/// flush waits while MaxWriteBufferSize bytes are unsent.</item>
/// </list>
/// Half-close both ways: a FIN from the peer completes the application's input without an error (the response
/// can still be sent), and the application completing its output shuts the socket down for writing. The
/// <see cref="ConnectionClosed"/> token fires when the connection is really gone: an error, an abort, or both
/// directions finished.
/// </summary>
internal sealed partial class TransportConnection : ConnectionContext
{
    /// <summary>Half of Kestrel's 4 KiB pool block: large enough for a request head without wasting the block.</summary>
    private const int MinimumReceiveBufferSize = 2048;

    private readonly LoopSocket _socket;
    private readonly TransportLoop _loop;
    private readonly Pipe _input;
    private readonly Pipe _output;
    private readonly CancellationTokenSource _connectionClosed = new();
    private readonly TaskCompletionSource _socketClosed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Lock _gate = new();
    private readonly bool _waitForData;
    private IDictionary<object, object?>? _items;
    private EndPoint? _localEndPoint;
    private Task _receiving = Task.CompletedTask;
    private Task _sending = Task.CompletedTask;
    private ConnectionAbortedException? _abortReason;
    private bool _shutdownForAbort;
    private bool _closed;
    private int _pumpsRunning = 2;
    private int _closedFired;

    public TransportConnection(LoopSocket socket, TransportLoop loop, EndPoint listenEndPoint, EndPoint? remoteEndPoint)
    {
        _socket = socket;
        _loop = loop;
        _waitForData = loop.Settings.WaitForData;
        ListenEndPoint = listenEndPoint;
        RemoteEndPoint = remoteEndPoint;
        ConnectionId = ConnectionIdGenerator.Next();
        ConnectionClosed = _connectionClosed.Token;

        var settings = loop.Settings;
        var application = settings.ApplicationScheduler;

        // Transport-side continuations (resume reading after backpressure, run the send pump) come back to the
        // loop thread that owns the socket; application-side ones go where ApplicationSchedulingMode says.
        _input = new Pipe(new PipeOptions(
            loop.MemoryPool,
            readerScheduler: application,
            writerScheduler: loop,
            pauseWriterThreshold: settings.MaxReadBufferSize,
            resumeWriterThreshold: settings.MaxReadBufferSize / 2,
            useSynchronizationContext: false));
        _output = new Pipe(new PipeOptions(
            loop.MemoryPool,
            readerScheduler: loop.SendScheduler,
            writerScheduler: application,
            pauseWriterThreshold: settings.MaxWriteBufferSize,
            resumeWriterThreshold: settings.MaxWriteBufferSize / 2,
            useSynchronizationContext: false));

        Transport = new DuplexPipe(_input.Reader, _output.Writer);
        Features = CreateFeatures();
    }

    public EndPoint ListenEndPoint { get; }

    public override string ConnectionId { get; set; }

    public override IFeatureCollection Features { get; }

    public override IDictionary<object, object?> Items
    {
        get => _items ??= new Dictionary<object, object?>();
        set => _items = value;
    }

    public override IDuplexPipe Transport { get; set; }

    public override CancellationToken ConnectionClosed { get; set; }

    public override EndPoint? LocalEndPoint
    {
        // Read once, lazily: most connections never ask, and getsockname is a syscall.
        get => _localEndPoint ??= SocketAddressCodec.LocalEndPoint(_socket.Fd) ?? ListenEndPoint;
        set => _localEndPoint = value;
    }

    public override EndPoint? RemoteEndPoint { get; set; }

    /// <summary>Starts both pumps. Loop thread, right after accept.</summary>
    public void Start()
    {
        _receiving = ReceiveAsync();
        _sending = SendAsync();
    }

    public override void Abort(ConnectionAbortedException abortReason)
    {
        ShutdownSocket(LibC.SHUT_RDWR, abortReason);

        // The send pump may be waiting for application data that will never come.
        _output.Reader.CancelPendingRead();
    }

    public override async ValueTask DisposeAsync()
    {
        // Kestrel is done with the connection: whatever it buffered is still sent (the send pump drains and then
        // half-closes), then the read side is shut so a receive waiting for a silent peer ends too.
        Transport.Input.Complete();
        Transport.Output.Complete();

        await _sending;
        ShutdownSocket(LibC.SHUT_RDWR, abortReason: null);
        await _receiving;
        await _socketClosed.Task;
        await base.DisposeAsync();
    }

    /// <summary>Tears the connection down when its loop exits with it still open. Loop thread.</summary>
    public void CloseOnLoopStop()
    {
        Abort(new ConnectionAbortedException("The transport was stopped."));
        CloseSocket();
    }

    private async Task ReceiveAsync()
    {
        var writer = _input.Writer;
        Exception? error = null;
        try
        {
            while (true)
            {
                if (_waitForData)
                {
                    await _socket.WaitForDataAsync();
                }

                var buffer = writer.GetMemory(MinimumReceiveBufferSize);
                var received = await _socket.ReceiveAsync(buffer);
                if (received == 0)
                {
                    break;
                }

                writer.Advance(received);

                // Backpressure: this await does not complete while the application has MaxReadBufferSize bytes
                // unread, so nothing more is read from the socket until it catches up.
                var flush = await writer.FlushAsync();
                if (flush.IsCompleted || flush.IsCanceled)
                {
                    break;
                }
            }
        }
        catch (Exception exception)
        {
            error = exception;
        }

        var abortReason = Volatile.Read(ref _abortReason);

        // FIN completes the input without an error: Kestrel finishes the request it has and can still respond.
        writer.Complete(abortReason ?? error);

        if (error is not null && abortReason is null)
        {
            // The peer reset the connection: nothing more can be sent either.
            ShutdownSocket(LibC.SHUT_RDWR, new ConnectionAbortedException("The connection was reset by the peer.", error));
            _output.Reader.CancelPendingRead();
            FireConnectionClosed();
        }
        else if (abortReason is not null)
        {
            FireConnectionClosed();
        }

        OnPumpEnded();
    }

    private async Task SendAsync()
    {
        var reader = _output.Reader;
        Exception? error = null;
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync();
                if (result.IsCanceled)
                {
                    break;
                }

                var buffer = result.Buffer;
                if (!buffer.IsEmpty)
                {
                    await _socket.SendAsync(buffer);
                }

                reader.AdvanceTo(buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }
        }
        catch (Exception exception)
        {
            error = exception;
        }

        if (error is null && Volatile.Read(ref _abortReason) is null)
        {
            // The application completed its output: tell the peer (FIN) but keep receiving (half-close).
            ShutdownSocket(LibC.SHUT_WR, abortReason: null);
        }
        else
        {
            ShutdownSocket(LibC.SHUT_RDWR, error is null ? new ConnectionAbortedException("Sending was aborted.") : new ConnectionAbortedException("Sending failed.", error));
            FireConnectionClosed();
        }

        // As Kestrel's own transport does: a reset peer is not the application's error, so its flush just sees
        // a completed pipe (and ConnectionClosed) instead of an exception it would log as unexpected.
        reader.Complete(error is null || TransportErrors.IsReset(error) ? null : error);

        // A receive pump paused by backpressure must not wait for an application that will never read again.
        if (error is not null)
        {
            _input.Writer.CancelPendingFlush();
        }

        OnPumpEnded();
    }

    /// <summary>
    /// shutdown(2) under the gate, so it can never hit a descriptor number the loop already closed and reused.
    /// An abort reason is recorded before the call, so the pumps report it instead of a generic error.
    /// </summary>
    private void ShutdownSocket(int how, ConnectionAbortedException? abortReason)
    {
        lock (_gate)
        {
            if (abortReason is not null)
            {
                _abortReason ??= abortReason;
            }

            if (_closed || (how == LibC.SHUT_RDWR && _shutdownForAbort))
            {
                return;
            }

            if (how == LibC.SHUT_RDWR)
            {
                _shutdownForAbort = true;
            }

            // ENOTCONN after the peer already left is expected and harmless.
            _ = LibC.shutdown(_socket.Fd, how);
        }
    }

    private void OnPumpEnded()
    {
        if (Interlocked.Decrement(ref _pumpsRunning) == 0)
        {
            _loop.Schedule(static state => ((TransportConnection)state!).CloseSocket(), this);
        }
    }

    private void CloseSocket()
    {
        lock (_gate)
        {
            if (_closed)
            {
                return;
            }

            _closed = true;
        }

        _socket.Close();
        _loop.OnClosed(this);
        FireConnectionClosed();
        _socketClosed.TrySetResult();
    }

    private void FireConnectionClosed()
    {
        if (Interlocked.Exchange(ref _closedFired, 1) != 0)
        {
            return;
        }

        // Never on the loop thread: Kestrel's callbacks abort requests and complete pipes.
        ThreadPool.UnsafeQueueUserWorkItem(static connection => connection._connectionClosed.Cancel(), this, preferLocal: false);
    }
}
