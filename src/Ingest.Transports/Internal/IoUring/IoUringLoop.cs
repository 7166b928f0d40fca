using System.Buffers;
using System.Net;
using System.Runtime.InteropServices;
using Ingest.Transports.Internal.Core;
using Ingest.Wire.Linux;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.IoUring;

/// <summary>
/// One io_uring transport thread with its own ring. Each iteration submits every SQE prepared since the last
/// one and, when there is nothing else to do, waits in the same io_uring_enter for a completion; then it
/// dispatches the completions (accepts, receives, sends) and runs the scheduled work. Other threads wake it
/// through an eventfd with a read always pending in the ring.
/// </summary>
internal sealed unsafe class IoUringLoop : TransportLoop
{
    private const int CompletionBatch = 256;
    private const int KindShift = 56;
    private const ulong WakeData = 1UL << KindShift;
    private const ulong AcceptKind = 2;
    private const ulong ReceiveKind = 3;
    private const ulong PollKind = 4;
    private const ulong SendKind = 5;
    private const ulong CancelKind = 6;
    private const uint PollIn = 0x0001;
    private const uint PollRdHup = 0x2000;

    private readonly IoUringRing _ring;
    private readonly int _eventFd;
    private readonly ulong* _eventValue;
    private readonly List<IoUringSocket?> _sockets = [];
    private readonly Stack<int> _freeSlots = new();
    private readonly List<Listener?> _listeners = [];

    public IoUringLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger)
        : base(index, settings, memoryPool, logger)
    {
        _ring = IoUringRing.Create((uint)settings.RingEntries, settings.DeferTaskRun);

        // Blocking on purpose: io_uring completes a read of a non-blocking file with EAGAIN instead of waiting.
        _eventFd = LibC.eventfd(0, LibC.EFD_CLOEXEC);
        if (_eventFd < 0)
        {
            var errno = LibC.LastErrno;
            _ring.Dispose();
            throw new IOException($"eventfd failed: {Errno.Describe(errno)}.");
        }

        _eventValue = (ulong*)NativeMemory.Alloc(sizeof(ulong));
    }

    public override void StartListening(int listenFd, NativeConnectionListener listener)
    {
        // The accept SQE waits in the kernel; a non-blocking listener would make it complete with EAGAIN.
        var flags = LibC.fcntl(listenFd, LibC.F_GETFL, 0);
        _ = LibC.fcntl(listenFd, LibC.F_SETFL, flags & ~LibC.O_NONBLOCK);

        var index = _listeners.IndexOf(null);
        var entry = new Listener(listenFd, listener);
        if (index < 0)
        {
            index = _listeners.Count;
            _listeners.Add(entry);
        }
        else
        {
            _listeners[index] = entry;
        }

        SubmitAccept(index, entry);
    }

    public override void StopListening(NativeConnectionListener listener)
    {
        for (var i = 0; i < _listeners.Count; i++)
        {
            if (_listeners[i] is not { } entry || entry.Owner != listener)
            {
                continue;
            }

            // Closing the descriptor does not end an accept the ring holds; cancel it and wait for its CQE, so
            // the port is really free when Kestrel's unbind returns.
            entry.Stopping = true;
            var sqe = _ring.NextSubmission();
            sqe->Opcode = 14; // IORING_OP_ASYNC_CANCEL
            sqe->Fd = -1;
            sqe->Address = (AcceptKind << KindShift) | (uint)i;
            sqe->UserData = CancelKind << KindShift;
            while (_listeners[i] is not null)
            {
                _ring.Enter(wait: true);
                DrainCompletions();
            }
        }
    }

    public void SubmitReceive(IoUringSocket socket, byte* buffer, int length)
    {
        var sqe = _ring.NextSubmission();
        sqe->Opcode = IoUringSubmission.OpRecv;
        sqe->Fd = socket.Fd;
        sqe->Address = (ulong)buffer;
        sqe->Length = (uint)length;
        sqe->UserData = (ReceiveKind << KindShift) | (uint)socket.Slot;
    }

    public void SubmitPoll(IoUringSocket socket)
    {
        var sqe = _ring.NextSubmission();
        sqe->Opcode = IoUringSubmission.OpPollAdd;
        sqe->Fd = socket.Fd;
        sqe->OpFlags = PollIn | PollRdHup;
        sqe->UserData = (PollKind << KindShift) | (uint)socket.Slot;
    }

    public void SubmitSend(IoUringSocket socket, byte* buffer, int length)
    {
        var sqe = _ring.NextSubmission();
        sqe->Opcode = IoUringSubmission.OpSend;
        sqe->Fd = socket.Fd;
        sqe->Address = (ulong)buffer;
        sqe->Length = (uint)length;
        sqe->OpFlags = LibC.MSG_NOSIGNAL;
        sqe->UserData = (SendKind << KindShift) | (uint)socket.Slot;
    }

    public void SubmitSendMessage(IoUringSocket socket, MessageHeader* message)
    {
        var sqe = _ring.NextSubmission();
        sqe->Opcode = IoUringSubmission.OpSendMsg;
        sqe->Fd = socket.Fd;
        sqe->Address = (ulong)message;
        sqe->Length = 1;
        sqe->OpFlags = LibC.MSG_NOSIGNAL;
        sqe->UserData = (SendKind << KindShift) | (uint)socket.Slot;
    }

    public void Release(IoUringSocket socket)
    {
        _sockets[socket.Slot] = null;
        _freeSlots.Push(socket.Slot);
    }

    protected override void RunLoop()
    {
        _ring.EnableOnThisThread();
        SubmitWakeRead();
        while (!StopRequested)
        {
            _ring.Enter(wait: !HasScheduledWork && !_ring.HasCompletions);
            DrainCompletions();
            RunScheduledWork();
        }
    }

    protected override void Wake()
    {
        ulong one = 1;
        _ = LibC.write(_eventFd, &one, sizeof(ulong));
    }

    protected override void ReleaseResources()
    {
        // Closing the ring cancels whatever is still in flight (accepts, receives of open connections).
        _ring.Dispose();
        foreach (var entry in _listeners)
        {
            if (entry is not null)
            {
                _ = LibC.close(entry.Fd);
                entry.Dispose();
            }
        }

        _listeners.Clear();
        _ = LibC.close(_eventFd);
        NativeMemory.Free(_eventValue);
    }

    private void SubmitWakeRead()
    {
        var sqe = _ring.NextSubmission();
        sqe->Opcode = IoUringSubmission.OpRead;
        sqe->Fd = _eventFd;
        sqe->Address = (ulong)_eventValue;
        sqe->Length = sizeof(ulong);
        sqe->UserData = WakeData;
    }

    private void SubmitAccept(int index, Listener listener)
    {
        *listener.AddressLength = SocketAddressCodec.MaxLength;
        var sqe = _ring.NextSubmission();
        sqe->Opcode = IoUringSubmission.OpAccept;
        sqe->Fd = listener.Fd;
        sqe->Address = (ulong)listener.Address;
        sqe->Offset = (ulong)listener.AddressLength;
        sqe->OpFlags = LibC.SOCK_CLOEXEC;
        sqe->UserData = (AcceptKind << KindShift) | (uint)index;
    }

    private void DrainCompletions()
    {
        Span<IoUringCompletion> batch = stackalloc IoUringCompletion[CompletionBatch];
        int count;
        while ((count = _ring.Reap(batch)) > 0)
        {
            for (var i = 0; i < count; i++)
            {
                Dispatch(batch[i].UserData, batch[i].Result);
            }
        }
    }

    private void Dispatch(ulong userData, int result)
    {
        var index = (int)(uint)userData;
        switch (userData >> KindShift)
        {
            case 1:
                ResetWake();
                SubmitWakeRead();
                break;
            case AcceptKind:
                OnAccepted(index, result);
                break;
            case ReceiveKind:
                _sockets[index]?.OnReceiveCompleted(result);
                break;
            case PollKind:
                _sockets[index]?.OnPollCompleted();
                break;
            case SendKind:
                _sockets[index]?.OnSendCompleted(result);
                break;
            default:
                // ASYNC_CANCEL's own completion: the cancelled accept reports separately.
                break;
        }
    }

    private void OnAccepted(int index, int result)
    {
        if (index >= _listeners.Count || _listeners[index] is not { } listener)
        {
            if (result >= 0)
            {
                _ = LibC.close(result);
            }

            return;
        }

        if (listener.Stopping)
        {
            if (result >= 0)
            {
                _ = LibC.close(result);
            }

            _ = LibC.close(listener.Fd);
            listener.Dispose();
            _listeners[index] = null;
            return;
        }

        if (result >= 0)
        {
            if (listener.Owner.EndPoint is IPEndPoint && Settings.NoDelay)
            {
                ListenSockets.SetNoDelay(result);
            }

            var remote = SocketAddressCodec.Read(new ReadOnlySpan<byte>(listener.Address, SocketAddressCodec.MaxLength), *listener.AddressLength);
            OnAccepted(CreateSocket(result), listener.Owner, remote);
        }
        else if (-result is not (Errno.EAGAIN or Errno.EINTR or Errno.ECONNABORTED))
        {
            TransportLog.AcceptFailed(Logger, listener.Owner.EndPoint, Errno.Describe(-result));
        }

        SubmitAccept(index, listener);
    }

    public override bool CanAdopt => true;

    protected override LoopSocket Adopt(int fd)
    {
        // As the ring's own accepts: a blocking descriptor, so a receive with nothing to read waits in the kernel
        // (io_uring polls for it) instead of completing at once with EAGAIN, as it does on an O_NONBLOCK one.
        var flags = LibC.fcntl(fd, LibC.F_GETFL, 0);
        if (flags < 0 || LibC.fcntl(fd, LibC.F_SETFL, flags & ~LibC.O_NONBLOCK) != 0)
        {
            throw new IOException($"fcntl on an adopted connection failed: {Errno.Describe(LibC.LastErrno)}.");
        }

        return CreateSocket(fd);
    }

    private IoUringSocket CreateSocket(int fd)
    {
        int slot;
        if (_freeSlots.Count != 0)
        {
            slot = _freeSlots.Pop();
        }
        else
        {
            slot = _sockets.Count;
            _sockets.Add(null);
        }

        var socket = new IoUringSocket(fd, this, slot);
        _sockets[slot] = socket;
        return socket;
    }

    /// <summary>A listening descriptor with the native room its pending accept writes the peer address into.</summary>
    private sealed class Listener(int fd, NativeConnectionListener owner) : IDisposable
    {
        public int Fd { get; } = fd;

        public NativeConnectionListener Owner { get; } = owner;

        public bool Stopping { get; set; }

        public byte* Address { get; } = (byte*)NativeMemory.Alloc(SocketAddressCodec.MaxLength + sizeof(int));

        public int* AddressLength => (int*)(Address + SocketAddressCodec.MaxLength);

        public void Dispose() => NativeMemory.Free(Address);
    }
}
