using System.Buffers;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.Native;
using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.Internal.Epoll;

/// <summary>
/// A connection socket of the epoll backend, registered once, edge-triggered, for both directions. Readiness is
/// cached in two flags: an edge sets a flag, a short read or EAGAIN clears it. So a receive on a socket known to
/// be drained waits for the next edge without a wasted syscall, and nothing is re-registered when a pipe fills up
/// (level-triggered epoll would need an epoll_ctl per pause and resume, or would spin).
/// </summary>
internal sealed unsafe class EpollSocket(int fd, EpollLoop loop, int slot, ulong token) : LoopSocket(fd)
{
    private readonly LoopOperation _receive = new();
    private readonly LoopOperation _send = new();
    private bool _readable;
    private bool _peerClosed;
    private bool _writable = true;
    private ReceiveState _receiveState;
    private SendState _sendState;
    private Memory<byte> _receiveBuffer;
    private ReadOnlySequence<byte> _sendBuffer;
    private MemoryHandle _receivePin;
    private long _aioSendBytes;

    private enum ReceiveState
    {
        Idle,
        WaitingForData,
        WaitingToReceive,
        QueuedForAio,
    }

    private enum SendState
    {
        Idle,
        Deferred,
        WaitingForWritable,
        QueuedForAio,
    }

    public int Slot { get; } = slot;

    public ulong Token { get; } = token;

    public override ValueTask WaitForDataAsync()
    {
        if (_readable)
        {
            return default;
        }

        _receiveState = ReceiveState.WaitingForData;
        return _receive.AsValueTask();
    }

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        // The receive pump always runs on the loop thread (see TransportConnection), so no locking here.
        if (_readable)
        {
            if (loop.AioReceives is { } aio)
            {
                _receiveBuffer = buffer;
                _receiveState = ReceiveState.QueuedForAio;
                aio.QueueReceive(this);
                return _receive.AsValueTaskOfInt();
            }

            var received = TryReceive(buffer, out var errno);
            if (received >= 0)
            {
                return new ValueTask<int>(received);
            }

            if (errno != Errno.EAGAIN)
            {
                return ValueTask.FromException<int>(TransportErrors.FromErrno(errno, "recv"));
            }
        }

        _receiveBuffer = buffer;
        _receiveState = ReceiveState.WaitingToReceive;
        return _receive.AsValueTaskOfInt();
    }

    public override ValueTask SendAsync(ReadOnlySequence<byte> buffer)
    {
        if (loop.IsLoopThread)
        {
            if (loop.Settings.DeferSend)
            {
                // Sent at the end of this loop iteration, together with whatever else was flushed meanwhile.
                _sendBuffer = buffer;
                _sendState = SendState.Deferred;
                loop.QueueDeferredSend(this);
                return _send.AsValueTask();
            }

            if (_writable)
            {
                var done = TrySend(ref buffer, out var errno);
                if (done)
                {
                    return default;
                }

                if (errno != Errno.EAGAIN)
                {
                    return ValueTask.FromException(TransportErrors.FromErrno(errno, "sendmsg"));
                }

                _writable = false;
            }

            _sendBuffer = buffer;
            _sendState = SendState.WaitingForWritable;
            return _send.AsValueTask();
        }

        // DeferSend off: send right here on the thread that flushed, no hop to the loop. Only when the kernel
        // buffer is full does the rest go to the loop, which waits for EPOLLOUT (readiness flags are loop-only).
        var sent = TrySend(ref buffer, out var sendErrno);
        if (sent)
        {
            return default;
        }

        if (sendErrno != Errno.EAGAIN)
        {
            return ValueTask.FromException(TransportErrors.FromErrno(sendErrno, "sendmsg"));
        }

        _sendBuffer = buffer;
        loop.Schedule(static state => ((EpollSocket)state!).ContinueSendOnLoop(), this);
        return _send.AsValueTask();
    }

    public override void Close()
    {
        // Normally nothing is pending here; when the loop stops with the connection open, fail what is.
        var aborted = new ConnectionAbortedException("The transport was stopped.");
        if (_receiveState != ReceiveState.Idle)
        {
            ReleaseReceive();
            _receiveState = ReceiveState.Idle;
            _receive.Fail(aborted);
        }

        if (_sendState != SendState.Idle)
        {
            _sendState = SendState.Idle;
            _sendBuffer = default;
            _send.Fail(aborted);
        }

        loop.Release(this);
        _ = LibC.close(Fd);
    }

    /// <summary>Readiness edges from epoll_wait. Loop thread.</summary>
    public void OnEvents(uint events)
    {
        if ((events & (LibC.EPOLLRDHUP | LibC.EPOLLHUP | LibC.EPOLLERR)) != 0)
        {
            // FIN or an error is pending behind any data: no further edge will come for it, so a short read
            // must not clear the readable flag any more.
            _peerClosed = true;
        }

        if ((events & (LibC.EPOLLIN | LibC.EPOLLRDHUP | LibC.EPOLLHUP | LibC.EPOLLERR)) != 0)
        {
            _readable = true;
            OnReadable();
        }

        if ((events & (LibC.EPOLLOUT | LibC.EPOLLHUP | LibC.EPOLLERR)) != 0)
        {
            _writable = true;
            if (_sendState == SendState.WaitingForWritable)
            {
                ContinueSendOnLoop();
            }
        }
    }

    /// <summary>Sends a deferred buffer at the end of the loop iteration. Loop thread.</summary>
    public void RunDeferredSend()
    {
        if (_sendState != SendState.Deferred)
        {
            return;
        }

        if (!_writable)
        {
            _sendState = SendState.WaitingForWritable;
            return;
        }

        ContinueSendOnLoop();
    }

    /// <summary>Builds this socket's PWRITEV control block. Loop thread.</summary>
    public bool PrepareAioSend(AioBatch batch)
    {
        if (_sendState != SendState.Deferred || !_writable)
        {
            if (_sendState == SendState.Deferred)
            {
                _sendState = SendState.WaitingForWritable;
            }

            return false;
        }

        _sendState = SendState.QueuedForAio;
        _aioSendBytes = batch.AddSend(this, _sendBuffer);
        return true;
    }

    /// <summary>The result of this socket's PWRITEV. Loop thread.</summary>
    public void OnAioSendCompleted(long result)
    {
        if (result < 0)
        {
            var errno = (int)-result;
            if (errno == Errno.EAGAIN)
            {
                _writable = false;
                _sendState = SendState.WaitingForWritable;
                return;
            }

            FailSend(errno);
            return;
        }

        _sendBuffer = _sendBuffer.Slice(result);
        if (_sendBuffer.IsEmpty)
        {
            CompleteSend();
            return;
        }

        if (result < _aioSendBytes)
        {
            // Partial write: the kernel buffer is full, wait for EPOLLOUT.
            _writable = false;
            _sendState = SendState.WaitingForWritable;
            return;
        }

        // Everything submitted went out but the buffer had more segments than one PWRITEV takes: next batch.
        _sendState = SendState.Deferred;
        loop.QueueDeferredSend(this);
    }

    /// <summary>Builds this socket's PREADV control block. Loop thread.</summary>
    public void PrepareAioReceive(AioBatch batch)
    {
        _receivePin = _receiveBuffer.Pin();
        batch.AddReceive(this, (byte*)_receivePin.Pointer, _receiveBuffer.Length);
    }

    /// <summary>The result of this socket's PREADV. Loop thread.</summary>
    public void OnAioReceiveCompleted(long result)
    {
        var length = _receiveBuffer.Length;
        if (result == -Errno.EAGAIN)
        {
            _receivePin.Dispose();
            _readable = false;
            _receiveState = ReceiveState.WaitingToReceive;
            return;
        }

        ReleaseReceive();
        _receiveState = ReceiveState.Idle;
        if (result < 0)
        {
            _receive.Fail(TransportErrors.FromErrno((int)-result, "AIO read"));
            return;
        }

        if (result > 0 && result < length && !_peerClosed)
        {
            _readable = false;
        }

        _receive.Complete((int)result);
    }

    private void OnReadable()
    {
        switch (_receiveState)
        {
            case ReceiveState.WaitingForData:
                _receiveState = ReceiveState.Idle;
                _receive.Complete(0);
                break;
            case ReceiveState.WaitingToReceive when loop.AioReceives is { } aio:
                _receiveState = ReceiveState.QueuedForAio;
                aio.QueueReceive(this);
                break;
            case ReceiveState.WaitingToReceive:
                var buffer = _receiveBuffer;
                var received = TryReceive(buffer, out var errno);
                if (received >= 0)
                {
                    ReleaseReceive();
                    _receiveState = ReceiveState.Idle;
                    _receive.Complete(received);
                }
                else if (errno != Errno.EAGAIN)
                {
                    ReleaseReceive();
                    _receiveState = ReceiveState.Idle;
                    _receive.Fail(TransportErrors.FromErrno(errno, "recv"));
                }

                break;
        }
    }

    private void ContinueSendOnLoop()
    {
        var buffer = _sendBuffer;
        var done = TrySend(ref buffer, out var errno);
        _sendBuffer = buffer;
        if (done)
        {
            CompleteSend();
        }
        else if (errno == Errno.EAGAIN)
        {
            _writable = false;
            _sendState = SendState.WaitingForWritable;
        }
        else
        {
            FailSend(errno);
        }
    }

    private void CompleteSend()
    {
        _sendBuffer = default;
        _sendState = SendState.Idle;
        _send.Complete(0);
    }

    private void FailSend(int errno)
    {
        _sendBuffer = default;
        _sendState = SendState.Idle;
        _send.Fail(TransportErrors.FromErrno(errno, "send"));
    }

    private void ReleaseReceive()
    {
        _receiveBuffer = default;
        _receivePin.Dispose();
        _receivePin = default;
    }

    /// <summary>One recv; clears the readable flag when the socket was drained. Returns -1 with errno on failure.</summary>
    private int TryReceive(Memory<byte> buffer, out int errno)
    {
        errno = 0;
        nint received;
        using (var pin = buffer.Pin())
        {
            do
            {
                received = LibC.recv(Fd, (byte*)pin.Pointer, buffer.Length, 0);
            }
            while (received < 0 && (errno = LibC.LastErrno) == Errno.EINTR);
        }

        if (received < 0)
        {
            if (errno == Errno.EAGAIN)
            {
                _readable = false;
            }

            return -1;
        }

        // A short read means the socket buffer was empty after it: the next edge will say when more arrives
        // (unless FIN was already seen, which raises no further edge).
        if (received > 0 && received < buffer.Length && !_peerClosed)
        {
            _readable = false;
        }

        return (int)received;
    }

    /// <summary>sendmsg until everything is sent, the kernel buffer is full (false, EAGAIN) or an error (false, errno).</summary>
    private bool TrySend(ref ReadOnlySequence<byte> buffer, out int errno)
    {
        errno = 0;
        var vectors = stackalloc IoVector[PinScratch.MaxSegments];
        var handles = PinScratch.Handles;
        while (!buffer.IsEmpty)
        {
            var count = IoVectors.Fill(buffer, vectors, handles, PinScratch.MaxSegments, out var total);
            var message = new MessageHeader { IoVectors = vectors, IoVectorCount = (nuint)count };
            nint sent;
            try
            {
                sent = LibC.sendmsg(Fd, &message, LibC.MSG_NOSIGNAL);
                if (sent < 0)
                {
                    errno = LibC.LastErrno;
                }
            }
            finally
            {
                IoVectors.Unpin(handles, count);
            }

            if (sent < 0)
            {
                if (errno == Errno.EINTR)
                {
                    continue;
                }

                return false;
            }

            buffer = buffer.Slice(sent);
            if (sent < total)
            {
                // The kernel took part of it: its buffer is full, so the next call would only say EAGAIN.
                errno = Errno.EAGAIN;
                return buffer.IsEmpty;
            }
        }

        return true;
    }
}
