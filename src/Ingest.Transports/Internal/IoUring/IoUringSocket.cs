using System.Buffers;
using System.Runtime.InteropServices;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.Native;
using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.Internal.IoUring;

/// <summary>
/// A connection socket of the io_uring backend: each receive, wait-for-data and send is one SQE, completed by
/// its CQE on the loop thread. Buffers stay pinned from submission to completion, because the kernel writes
/// into (or reads from) them asynchronously.
/// </summary>
internal sealed unsafe class IoUringSocket(int fd, IoUringLoop loop, int slot) : LoopSocket(fd)
{
    /// <summary>Segments per SENDMSG; a longer buffer continues with the next SQE.</summary>
    private const int MaxSendSegments = 16;

    private readonly LoopOperation _receive = new();
    private readonly LoopOperation _send = new();
    private MemoryHandle _receivePin;
    private bool _receivePending;
    private ReadOnlySequence<byte> _sendBuffer;
    private long _sendSubmitted;
    private MemoryHandle[]? _sendPins;
    private int _sendPinCount;
    private MessageHeader* _message;
    private bool _sendPending;

    public int Slot { get; } = slot;

    public override ValueTask WaitForDataAsync()
    {
        _receivePending = true;
        loop.SubmitPoll(this);
        return _receive.AsValueTask();
    }

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        _receivePin = buffer.Pin();
        _receivePending = true;
        loop.SubmitReceive(this, (byte*)_receivePin.Pointer, buffer.Length);
        return _receive.AsValueTaskOfInt();
    }

    public override ValueTask SendAsync(ReadOnlySequence<byte> buffer)
    {
        _sendBuffer = buffer;
        _sendPending = true;
        SubmitSend();
        return _send.AsValueTask();
    }

    public override void Close()
    {
        if (_receivePending || _sendPending)
        {
            // Only when the loop stops with the connection open: the ring is torn down right after, so the
            // buffers the kernel may still touch stay pinned (they are never unpinned here) until then.
            var aborted = new ConnectionAbortedException("The transport was stopped.");
            if (_receivePending)
            {
                _receivePending = false;
                _receive.Fail(aborted);
            }

            if (_sendPending)
            {
                _sendPending = false;
                _send.Fail(aborted);
            }
        }
        else if (_message is not null)
        {
            NativeMemory.Free(_message);
            _message = null;
        }

        loop.Release(this);
        _ = LibC.close(Fd);
    }

    public void OnPollCompleted()
    {
        // The mask (or an error) does not matter: the receive that follows reports data, FIN or the error.
        _receivePending = false;
        _receive.Complete(0);
    }

    public void OnReceiveCompleted(int result)
    {
        _receivePending = false;
        _receivePin.Dispose();
        _receivePin = default;
        if (result < 0)
        {
            _receive.Fail(TransportErrors.FromErrno(-result, "io_uring recv"));
            return;
        }

        _receive.Complete(result);
    }

    public void OnSendCompleted(int result)
    {
        UnpinSend();
        if (result < 0)
        {
            if (-result is Errno.EAGAIN or Errno.EINTR)
            {
                SubmitSend();
                return;
            }

            _sendPending = false;
            _sendBuffer = default;
            _send.Fail(TransportErrors.FromErrno(-result, "io_uring send"));
            return;
        }

        _sendBuffer = _sendBuffer.Slice(result);
        if (_sendBuffer.IsEmpty)
        {
            _sendPending = false;
            _send.Complete(0);
            return;
        }

        // A short send (or more segments than one SENDMSG takes): carry on with the rest.
        SubmitSend();
    }

    private void SubmitSend()
    {
        if (_sendBuffer.IsSingleSegment)
        {
            var memory = _sendBuffer.First;
            _sendPins ??= new MemoryHandle[MaxSendSegments];
            _sendPins[0] = memory.Pin();
            _sendPinCount = 1;
            _sendSubmitted = memory.Length;
            loop.SubmitSend(this, (byte*)_sendPins[0].Pointer, memory.Length);
            return;
        }

        if (_message is null)
        {
            // msghdr followed by its iovec array, allocated once per connection that ever sends more than one segment.
            _message = (MessageHeader*)NativeMemory.Alloc((nuint)(sizeof(MessageHeader) + (MaxSendSegments * sizeof(IoVector))));
        }

        _sendPins ??= new MemoryHandle[MaxSendSegments];
        var vectors = (IoVector*)(_message + 1);
        _sendPinCount = IoVectors.Fill(_sendBuffer, vectors, _sendPins, MaxSendSegments, out _sendSubmitted);
        *_message = new MessageHeader { IoVectors = vectors, IoVectorCount = (nuint)_sendPinCount };
        loop.SubmitSendMessage(this, _message);
    }

    private void UnpinSend()
    {
        if (_sendPins is not null)
        {
            IoVectors.Unpin(_sendPins, _sendPinCount);
        }

        _sendPinCount = 0;
    }
}
