using System.Buffers;
using System.Runtime.InteropServices;
using Ingest.Wire.Linux;

namespace Ingest.Transports.Internal.Epoll;

/// <summary>
/// Linux AIO used as a syscall batcher, as the Red Hat transport did: the receives (IOCB_CMD_PREADV) or sends
/// (IOCB_CMD_PWRITEV) of every socket that became ready in one loop iteration go to the kernel in one
/// <c>io_submit</c>, and their results come back with one <c>io_getevents</c>. On non-blocking sockets the kernel
/// performs each operation inside io_submit (EAGAIN is a result, never a wait), so nothing is in flight once
/// Submit returns. Loop thread only.
/// </summary>
internal sealed unsafe class AioBatch : IDisposable
{
    /// <summary>Control blocks per io_submit; a larger batch is submitted in several calls.</summary>
    public const int Capacity = 256;

    /// <summary>Segments per PWRITEV; the rest of a longer buffer goes in the next batch.</summary>
    private const int MaxSendSegments = 16;

    private readonly ulong _context;
    private readonly AioControlBlock* _blocks;
    private readonly AioControlBlock** _blockPointers;
    private readonly AioEvent* _events;
    private readonly IoVector* _vectors;
    private readonly long* _results;
    private readonly MemoryHandle[] _pins = new MemoryHandle[Capacity * MaxSendSegments];
    private readonly EpollSocket[] _sockets = new EpollSocket[Capacity];
    private readonly List<EpollSocket> _queuedReceives = [];
    private int _count;
    private int _pinCount;

    private AioBatch(ulong context)
    {
        _context = context;
        _blocks = (AioControlBlock*)NativeMemory.AllocZeroed((nuint)(Capacity * sizeof(AioControlBlock)));
        _blockPointers = (AioControlBlock**)NativeMemory.AllocZeroed((nuint)(Capacity * sizeof(void*)));
        _events = (AioEvent*)NativeMemory.AllocZeroed((nuint)(Capacity * sizeof(AioEvent)));
        _vectors = (IoVector*)NativeMemory.AllocZeroed((nuint)(Capacity * MaxSendSegments * sizeof(IoVector)));
        _results = (long*)NativeMemory.AllocZeroed((nuint)(Capacity * sizeof(long)));
        for (var i = 0; i < Capacity; i++)
        {
            _blockPointers[i] = &_blocks[i];
        }
    }

    public bool HasQueuedReceives => _queuedReceives.Count != 0;

    /// <summary>Creates an AIO context, or explains why there is none (e.g. fs.aio-max-nr exhausted).</summary>
    public static AioBatch Create()
    {
        ulong context = 0;
        if (LibC.Syscall(LibC.SYS_io_setup, Capacity, (long)&context, 0, 0, 0, 0) != 0)
        {
            throw new IOException($"io_setup failed: {Errno.Describe(LibC.LastErrno)}. Raise fs.aio-max-nr or set Kestrel:LinuxEpoll:AioReceive and AioSend to false.");
        }

        return new AioBatch(context);
    }

    /// <summary>Whether io_setup works here (the probe run at start-up when AIO is enabled).</summary>
    public static string? Probe()
    {
        ulong context = 0;
        if (LibC.Syscall(LibC.SYS_io_setup, 1, (long)&context, 0, 0, 0, 0) != 0)
        {
            return $"Linux AIO is unavailable: io_setup failed with {Errno.Describe(LibC.LastErrno)}. Set Kestrel:LinuxEpoll:AioReceive and Kestrel:LinuxEpoll:AioSend to false.";
        }

        _ = LibC.Syscall(LibC.SYS_io_destroy, (long)context, 0, 0, 0, 0, 0);
        return null;
    }

    /// <summary>Remembers a socket whose receive goes into the next receive batch.</summary>
    public void QueueReceive(EpollSocket socket) => _queuedReceives.Add(socket);

    /// <summary>Submits the queued receives (possibly in several batches) and completes them.</summary>
    public void SubmitReceives()
    {
        // Completions may queue new receives (a full buffer means more may be waiting): loop until none are left.
        while (_queuedReceives.Count != 0)
        {
            var take = Math.Min(_queuedReceives.Count, Capacity);
            for (var i = 0; i < take; i++)
            {
                _queuedReceives[i].PrepareAioReceive(this);
            }

            _queuedReceives.RemoveRange(0, take);
            var count = Submit();
            for (var i = 0; i < count; i++)
            {
                _sockets[i].OnAioReceiveCompleted(_results[i]);
                _sockets[i] = null!;
            }
        }
    }

    /// <summary>Submits the deferred sends of this iteration and completes them.</summary>
    public void SubmitSends(List<EpollSocket> sockets)
    {
        var index = 0;
        while (index < sockets.Count)
        {
            while (index < sockets.Count && _count < Capacity)
            {
                _ = sockets[index].PrepareAioSend(this);
                index++;
            }

            var count = Submit();
            for (var i = 0; i < count; i++)
            {
                _sockets[i].OnAioSendCompleted(_results[i]);
                _sockets[i] = null!;
            }
        }
    }

    public void AddReceive(EpollSocket socket, byte* buffer, int length)
    {
        var index = _count++;
        var vector = &_vectors[index * MaxSendSegments];
        vector->Base = buffer;
        vector->Length = (nuint)length;
        Prepare(index, socket, AioControlBlock.CommandPreadv, vector, 1);
    }

    /// <summary>Adds a PWRITEV of the first segments of <paramref name="buffer"/>; returns the bytes it covers.</summary>
    public long AddSend(EpollSocket socket, in ReadOnlySequence<byte> buffer)
    {
        var index = _count++;
        var vectors = &_vectors[index * MaxSendSegments];
        var pins = new Span<MemoryHandle>(_pins, _pinCount, MaxSendSegments);
        var count = 0;
        long bytes = 0;
        foreach (var segment in buffer)
        {
            if (segment.IsEmpty)
            {
                continue;
            }

            if (count == MaxSendSegments)
            {
                break;
            }

            pins[count] = segment.Pin();
            vectors[count].Base = (byte*)pins[count].Pointer;
            vectors[count].Length = (nuint)segment.Length;
            bytes += segment.Length;
            count++;
        }

        _pinCount += count;
        Prepare(index, socket, AioControlBlock.CommandPwritev, vectors, count);
        return bytes;
    }

    public void Dispose()
    {
        _ = LibC.Syscall(LibC.SYS_io_destroy, (long)_context, 0, 0, 0, 0, 0);
        NativeMemory.Free(_blocks);
        NativeMemory.Free(_blockPointers);
        NativeMemory.Free(_events);
        NativeMemory.Free(_vectors);
        NativeMemory.Free(_results);
    }

    private void Prepare(int index, EpollSocket socket, ushort command, IoVector* vectors, int vectorCount)
    {
        _sockets[index] = socket;
        var block = &_blocks[index];
        *block = default;
        block->Data = (ulong)index;
        block->Opcode = command;
        block->Fd = (uint)socket.Fd;
        block->Buffer = (ulong)vectors;
        block->Bytes = (ulong)vectorCount;
    }

    /// <summary>io_submit + io_getevents for the prepared blocks; results land in <see cref="_results"/> by index.</summary>
    private int Submit()
    {
        var count = _count;
        _count = 0;
        if (count == 0)
        {
            return 0;
        }

        var submitted = 0;
        while (submitted < count)
        {
            var result = LibC.Syscall(LibC.SYS_io_submit, (long)_context, count - submitted, (long)(_blockPointers + submitted), 0, 0, 0);
            if (result < 0)
            {
                var errno = LibC.LastErrno;
                if (errno == Errno.EINTR || errno == Errno.EAGAIN)
                {
                    continue;
                }

                // Blocks the kernel refused complete with the error, so their connections fail cleanly.
                for (var i = submitted; i < count; i++)
                {
                    _results[i] = -errno;
                }

                break;
            }

            submitted += (int)result;
        }

        var reaped = 0;
        while (reaped < submitted)
        {
            var result = LibC.Syscall(LibC.SYS_io_getevents, (long)_context, submitted - reaped, submitted - reaped, (long)_events, 0, 0);
            if (result < 0)
            {
                if (LibC.LastErrno == Errno.EINTR)
                {
                    continue;
                }

                throw new IOException($"io_getevents failed: {Errno.Describe(LibC.LastErrno)}.");
            }

            for (var i = 0; i < result; i++)
            {
                _results[_events[i].Data] = _events[i].Result;
            }

            reaped += (int)result;
        }

        for (var i = 0; i < _pinCount; i++)
        {
            _pins[i].Dispose();
            _pins[i] = default;
        }

        _pinCount = 0;
        return count;
    }
}
