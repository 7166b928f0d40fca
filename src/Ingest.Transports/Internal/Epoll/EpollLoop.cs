using System.Buffers;
using System.Runtime.InteropServices;
using Ingest.Transports.Internal.Core;
using Ingest.Wire.Linux;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Epoll;

/// <summary>
/// One epoll transport thread. Each iteration: wait for events (not at all when work is queued), accept on its
/// own listening sockets, complete the receives and sends that became possible, submit the AIO receive batch,
/// run the work other threads scheduled (the send pumps after a flush), then send what was deferred.
/// </summary>
internal sealed unsafe class EpollLoop : TransportLoop
{
    private const int MaxEvents = 256;

    /// <summary>Accepts per listener and iteration, so a connection storm cannot starve established connections.</summary>
    private const int MaxAcceptsPerEvent = 64;

    private const ulong WakeToken = ulong.MaxValue;
    private const ulong ListenerTokenFlag = 1UL << 62;

    private readonly int _epoll;
    private readonly int _eventFd;
    private readonly EpollEvent* _events;
    private readonly List<EpollSocket?> _sockets = [];
    private readonly Stack<int> _freeSlots = new();
    private readonly List<int> _generations = [];
    private readonly List<Listener?> _listeners = [];
    private List<EpollSocket> _deferredSends = [];
    private List<EpollSocket> _sendingNow = [];

    public EpollLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger)
        : base(index, settings, memoryPool, logger)
    {
        _epoll = LibC.epoll_create1(LibC.EPOLL_CLOEXEC);
        if (_epoll < 0)
        {
            throw new IOException($"epoll_create1 failed: {Errno.Describe(LibC.LastErrno)}.");
        }

        _eventFd = LibC.eventfd(0, LibC.EFD_CLOEXEC | LibC.EFD_NONBLOCK);
        if (_eventFd < 0)
        {
            var errno = LibC.LastErrno;
            _ = LibC.close(_epoll);
            throw new IOException($"eventfd failed: {Errno.Describe(errno)}.");
        }

        Register(_eventFd, LibC.EPOLLIN, WakeToken);
        _events = (EpollEvent*)NativeMemory.Alloc(MaxEvents, (nuint)sizeof(EpollEvent));
        if (settings.AioReceive || settings.AioSend)
        {
            Aio = AioBatch.Create();
            AioReceives = settings.AioReceive ? Aio : null;
        }
    }

    /// <summary>The AIO batcher when AioReceive or AioSend is on; null otherwise.</summary>
    public AioBatch? Aio { get; }

    /// <summary>The batcher receives go through: null unless AioReceive is on.</summary>
    public AioBatch? AioReceives { get; }

    // With DeferSend off, the send pump runs on whichever thread flushed and sends from there.
    public override System.IO.Pipelines.PipeScheduler SendScheduler =>
        Settings.DeferSend ? this : System.IO.Pipelines.PipeScheduler.Inline;

    public override void StartListening(int listenFd, NativeConnectionListener listener)
    {
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

        // Level-triggered: when MaxAcceptsPerEvent stops the accept loop early, the next epoll_wait reports it
        // again. A Unix socket's descriptors are dup()s of one socket in every loop: EPOLLEXCLUSIVE wakes one.
        var events = LibC.EPOLLIN;
        if (listener.EndPoint is System.Net.Sockets.UnixDomainSocketEndPoint)
        {
            events |= LibC.EPOLLEXCLUSIVE;
        }

        Register(listenFd, events, ListenerTokenFlag | (uint)index);
    }

    public override void StopListening(NativeConnectionListener listener)
    {
        for (var i = 0; i < _listeners.Count; i++)
        {
            if (_listeners[i] is { } entry && entry.Owner == listener)
            {
                _ = LibC.epoll_ctl(_epoll, LibC.EPOLL_CTL_DEL, entry.Fd, null);
                _ = LibC.close(entry.Fd);
                _listeners[i] = null;
            }
        }
    }

    public override bool CanAdopt => true;

    /// <summary>Queues a send for the end of this iteration. Loop thread.</summary>
    public void QueueDeferredSend(EpollSocket socket) => _deferredSends.Add(socket);

    /// <summary>Frees a closed socket's slot; the generation makes stale events for the slot harmless. Loop thread.</summary>
    public void Release(EpollSocket socket)
    {
        _sockets[socket.Slot] = null;
        _generations[socket.Slot]++;
        _freeSlots.Push(socket.Slot);
    }

    protected override void RunLoop()
    {
        while (!StopRequested)
        {
            // Do not sleep while something is ready to run: scheduled work, deferred sends, or receives queued for
            // AIO by work that ran after this iteration's batch (a pipe that resumed after backpressure).
            var timeout = HasScheduledWork || _deferredSends.Count != 0 || Aio is { HasQueuedReceives: true } ? 0 : -1;
            var count = LibC.epoll_wait(_epoll, _events, MaxEvents, timeout);
            if (count < 0)
            {
                var errno = LibC.LastErrno;
                if (errno == Errno.EINTR)
                {
                    continue;
                }

                throw new IOException($"epoll_wait failed: {Errno.Describe(errno)}.");
            }

            for (var i = 0; i < count; i++)
            {
                Dispatch(_events[i].Data, _events[i].Events);
            }

            if (Aio is { HasQueuedReceives: true } aio)
            {
                aio.SubmitReceives();
            }

            RunScheduledWork();
            FlushDeferredSends();
        }
    }

    protected override void Wake()
    {
        ulong one = 1;
        _ = LibC.write(_eventFd, &one, sizeof(ulong));
    }

    protected override void ReleaseResources()
    {
        foreach (var entry in _listeners)
        {
            if (entry is not null)
            {
                _ = LibC.close(entry.Fd);
            }
        }

        _listeners.Clear();
        Aio?.Dispose();
        _ = LibC.close(_eventFd);
        _ = LibC.close(_epoll);
        NativeMemory.Free(_events);
    }

    private void Dispatch(ulong token, uint events)
    {
        if (token == WakeToken)
        {
            ulong value;
            _ = LibC.read(_eventFd, &value, sizeof(ulong));
            ResetWake();
            return;
        }

        if ((token & ListenerTokenFlag) != 0)
        {
            var index = (int)(token & ~ListenerTokenFlag);
            if (index < _listeners.Count && _listeners[index] is { } listener)
            {
                Accept(listener);
            }

            return;
        }

        var slot = (int)(uint)token;
        var generation = (int)(token >> 32);
        if (slot < _sockets.Count && _generations[slot] == generation && _sockets[slot] is { } socket)
        {
            socket.OnEvents(events);
        }
    }

    private void Accept(Listener listener)
    {
        var address = stackalloc byte[SocketAddressCodec.MaxLength];
        var isTcp = listener.Owner.EndPoint is System.Net.IPEndPoint;
        for (var i = 0; i < MaxAcceptsPerEvent; i++)
        {
            var length = SocketAddressCodec.MaxLength;
            var fd = LibC.accept4(listener.Fd, address, &length, LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC);
            if (fd < 0)
            {
                var errno = LibC.LastErrno;
                if (errno is Errno.EINTR or Errno.ECONNABORTED)
                {
                    continue;
                }

                if (errno != Errno.EAGAIN)
                {
                    TransportLog.AcceptFailed(Logger, listener.Owner.EndPoint, Errno.Describe(errno));
                }

                return;
            }

            if (isTcp && Settings.NoDelay)
            {
                ListenSockets.SetNoDelay(fd);
            }

            var socket = CreateSocket(fd);
            var remote = SocketAddressCodec.Read(new ReadOnlySpan<byte>(address, SocketAddressCodec.MaxLength), length);
            OnAccepted(socket, listener.Owner, remote);
        }
    }

    protected override LoopSocket Adopt(int fd) => CreateSocket(fd);

    private EpollSocket CreateSocket(int fd)
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
            _generations.Add(0);
        }

        var token = ((ulong)(uint)_generations[slot] << 32) | (uint)slot;
        var socket = new EpollSocket(fd, this, slot, token);
        _sockets[slot] = socket;

        // Registered once for the socket's lifetime: both directions, edge-triggered.
        Register(fd, LibC.EPOLLIN | LibC.EPOLLOUT | LibC.EPOLLRDHUP | LibC.EPOLLET, token);
        return socket;
    }

    private void FlushDeferredSends()
    {
        if (_deferredSends.Count == 0)
        {
            return;
        }

        // Sends queued by the completions below belong to the next iteration.
        (_sendingNow, _deferredSends) = (_deferredSends, _sendingNow);
        if (Aio is { } aio && Settings.AioSend)
        {
            aio.SubmitSends(_sendingNow);
        }
        else
        {
            foreach (var socket in _sendingNow)
            {
                socket.RunDeferredSend();
            }
        }

        _sendingNow.Clear();
    }

    private void Register(int fd, uint events, ulong token)
    {
        var registration = new EpollEvent { Events = events, Data = token };
        if (LibC.epoll_ctl(_epoll, LibC.EPOLL_CTL_ADD, fd, &registration) != 0)
        {
            throw new IOException($"epoll_ctl(ADD) failed: {Errno.Describe(LibC.LastErrno)}.");
        }
    }

    private sealed record Listener(int Fd, NativeConnectionListener Owner);
}
