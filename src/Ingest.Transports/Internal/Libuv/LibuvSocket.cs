using System.Buffers;
using System.Runtime.InteropServices;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.Native;
using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.Internal.Libuv;

/// <summary>
/// A connection socket of the libuv backend: a <c>uv_tcp_t</c> or <c>uv_pipe_t</c> stream owned by one loop.
/// Reading is started while a receive is pending and stopped when the pump stops asking (backpressure), so libuv
/// only calls the allocation callback when it has data for a waiting receive. Sends try <c>uv_try_write</c>
/// first and fall back to <c>uv_write</c> for what the kernel did not take.
/// </summary>
internal sealed unsafe class LibuvSocket : LoopSocket
{
    private const int MaxSendSegments = 16;

    private readonly LoopOperation _receive = new();
    private readonly LoopOperation _send = new();
    private readonly nint _handle;
    private readonly nint _writeRequest;
    private readonly UvBuffer* _buffers;
    private readonly MemoryHandle[] _sendPins = new MemoryHandle[MaxSendSegments];
    private readonly GCHandle _self;
    private Memory<byte> _receiveBuffer;
    private MemoryHandle _receivePin;
    private bool _receivePending;
    private bool _reading;
    private ReadOnlySequence<byte> _sendBuffer;
    private long _sendSubmitted;
    private int _sendPinCount;
    private bool _sendPending;

    private readonly LibuvLoop _loop;

    public LibuvSocket(int fd, nint handle, LibuvLoop loop)
        : base(fd)
    {
        _loop = loop;
        _handle = handle;
        _self = GCHandle.Alloc(this);
        LibuvNative.Data(handle) = GCHandle.ToIntPtr(_self);
        _writeRequest = (nint)NativeMemory.Alloc(LibuvNative.uv_req_size(LibuvNative.RequestTypeWrite));
        LibuvNative.Data(_writeRequest) = GCHandle.ToIntPtr(_self);
        _buffers = (UvBuffer*)NativeMemory.Alloc((nuint)(MaxSendSegments * sizeof(UvBuffer)));
    }

    public override ValueTask WaitForDataAsync() =>
        throw new NotSupportedException("libuv asks for a buffer only once data is there; the Libuv transport never waits for data separately.");

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        _receiveBuffer = buffer;
        _receivePending = true;
        if (!_reading)
        {
            var result = LibuvNative.uv_read_start(_handle, &OnAllocate, &OnRead);
            if (result != 0)
            {
                _receivePending = false;
                _receiveBuffer = default;
                return ValueTask.FromException<int>(new IOException($"uv_read_start failed: {LibuvNative.Describe(result)}."));
            }

            _reading = true;
        }

        return _receive.AsValueTaskOfInt();
    }

    public override ValueTask SendAsync(ReadOnlySequence<byte> buffer)
    {
        // Most responses fit the kernel buffer: uv_try_write sends them now, with no request and no callback.
        while (!buffer.IsEmpty)
        {
            var count = FillBuffers(buffer, out var total);
            var written = LibuvNative.uv_try_write(_handle, _buffers, (uint)count);
            UnpinSend();
            if (written == LibuvNative.ErrorAgain)
            {
                break;
            }

            if (written < 0)
            {
                return ValueTask.FromException(Error(written, "uv_try_write"));
            }

            buffer = buffer.Slice(written);
            if (written < total)
            {
                break;
            }
        }

        if (buffer.IsEmpty)
        {
            return default;
        }

        _sendBuffer = buffer;
        _sendPending = true;
        var started = Write();
        return started is null ? _send.AsValueTask() : ValueTask.FromException(started);
    }

    public override void Close()
    {
        var aborted = new ConnectionAbortedException("The transport was stopped.");
        if (_receivePending)
        {
            _receivePending = false;
            _receiveBuffer = default;
            _receive.Fail(aborted);
        }

        if (_sendPending)
        {
            // uv_close below cancels the write; its callback (UV_ECANCELED) still runs and must find the pins.
            _sendPending = false;
            _send.Fail(aborted);
        }

        // Closes the descriptor now and frees the handle in the close callback.
        LibuvNative.uv_close(_handle, &OnClosed);
    }

    private Exception? Write()
    {
        var count = FillBuffers(_sendBuffer, out _sendSubmitted);
        var result = LibuvNative.uv_write(_writeRequest, _handle, _buffers, (uint)count, &OnWritten);
        if (result != 0)
        {
            UnpinSend();
            _sendPending = false;
            return Error(result, "uv_write");
        }

        return null;
    }

    private int FillBuffers(in ReadOnlySequence<byte> buffer, out long total) =>
        _sendPinCount = IoVectors.Fill(buffer, (IoVector*)_buffers, _sendPins, MaxSendSegments, out total);

    private void UnpinSend()
    {
        IoVectors.Unpin(_sendPins, _sendPinCount);
        _sendPinCount = 0;
    }

    private static Exception Error(long result, string operation) =>
        -result is Errno.ECONNRESET or Errno.EPIPE or Errno.ECONNABORTED or Errno.ENOTCONN or Errno.ETIMEDOUT
            ? TransportErrors.FromErrno((int)-result, operation)
            : new IOException($"{operation} failed: {LibuvNative.Describe((int)result)}.");

    private static LibuvSocket FromData(nint handleOrRequest) => (LibuvSocket)GCHandle.FromIntPtr(LibuvNative.Data(handleOrRequest)).Target!;

    [UnmanagedCallersOnly]
    private static void OnAllocate(nint handle, nuint suggestedSize, UvBuffer* buffer)
    {
        var socket = FromData(handle);
        if (!socket._receivePending || socket._receiveBuffer.IsEmpty)
        {
            // A zero-length buffer makes libuv report UV_ENOBUFS, on which reading is stopped.
            *buffer = default;
            return;
        }

        socket._receivePin = socket._receiveBuffer.Pin();
        buffer->Base = (byte*)socket._receivePin.Pointer;
        buffer->Length = (nuint)socket._receiveBuffer.Length;
    }

    [UnmanagedCallersOnly]
    private static void OnRead(nint stream, nint read, UvBuffer* buffer)
    {
        var socket = FromData(stream);
        try
        {
            socket.Read(read);
        }
        catch (Exception error)
        {
            // An exception must not unwind into libuv's C frames.
            socket._loop.ReportCallbackFailure(error);
        }
    }

    private void Read(nint read)
    {
        _receivePin.Dispose();
        _receivePin = default;
        if (read == 0 || !_receivePending)
        {
            // 0: EAGAIN, the buffer comes back unused. Not pending: UV_ENOBUFS after the pump stopped asking.
            StopReadingIfIdle();
            return;
        }

        _receivePending = false;
        _receiveBuffer = default;
        if (read > 0)
        {
            // Runs the receive pump inline: it flushes and, unless the pipe is full, asks for the next receive.
            _receive.Complete((int)read);
        }
        else if (read == LibuvNative.ErrorEof)
        {
            _receive.Complete(0);
        }
        else
        {
            _receive.Fail(Error(read, "libuv read"));
        }

        StopReadingIfIdle();
    }

    [UnmanagedCallersOnly]
    private static void OnWritten(nint request, int status)
    {
        var socket = FromData(request);
        try
        {
            socket.Written(status);
        }
        catch (Exception error)
        {
            socket._loop.ReportCallbackFailure(error);
        }
    }

    private void Written(int status)
    {
        UnpinSend();
        if (!_sendPending)
        {
            return;
        }

        if (status < 0)
        {
            _sendPending = false;
            _sendBuffer = default;
            _send.Fail(Error(status, "libuv write"));
            return;
        }

        // uv_write only calls back once everything was written.
        _sendBuffer = _sendBuffer.Slice(_sendSubmitted);
        if (!_sendBuffer.IsEmpty)
        {
            if (Write() is { } error)
            {
                _sendBuffer = default;
                _send.Fail(error);
            }

            return;
        }

        _sendPending = false;
        _send.Complete(0);
    }

    [UnmanagedCallersOnly]
    private static void OnClosed(nint handle)
    {
        var socket = FromData(handle);
        socket.UnpinSend();
        NativeMemory.Free((void*)socket._writeRequest);
        NativeMemory.Free(socket._buffers);
        NativeMemory.Free((void*)handle);
        socket._self.Free();
    }

    private void StopReadingIfIdle()
    {
        if (!_receivePending && _reading)
        {
            _ = LibuvNative.uv_read_stop(_handle);
            _reading = false;
        }
    }
}
