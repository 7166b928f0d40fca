using System.Buffers;
using System.Net;
using System.Runtime.InteropServices;
using Ingest.Transports.Internal.Core;
using Ingest.Wire.Linux;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Libuv;

/// <summary>
/// One libuv transport thread: a <c>uv_loop_t</c> run one iteration at a time, so the scheduled work runs between
/// iterations and the loop never sleeps while work is queued. Other threads wake it with <c>uv_async_send</c>.
/// Each loop listens on its own descriptor (SO_REUSEPORT, opened with <c>uv_tcp_open</c>): the kernel spreads
/// connections, as for the other backends, instead of one accepting loop handing sockets to the others.
/// </summary>
internal sealed unsafe class LibuvLoop : TransportLoop
{
    private readonly nint _loop;
    private readonly nint _async;
    private readonly GCHandle _self;
    private readonly List<Listener> _listeners = [];

    public LibuvLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger)
        : base(index, settings, memoryPool, logger)
    {
        LibuvNative.EnsureResolver();
        _self = GCHandle.Alloc(this);
        _loop = (nint)NativeMemory.AllocZeroed(LibuvNative.uv_loop_size());
        Check(LibuvNative.uv_loop_init(_loop), "uv_loop_init");
        LibuvNative.Data(_loop) = GCHandle.ToIntPtr(_self);
        _async = (nint)NativeMemory.AllocZeroed(LibuvNative.uv_handle_size(LibuvNative.HandleTypeAsync));
        Check(LibuvNative.uv_async_init(_loop, _async, &OnAsync), "uv_async_init");
        LibuvNative.Data(_async) = GCHandle.ToIntPtr(_self);
    }

    public override void StartListening(int listenFd, NativeConnectionListener listener)
    {
        var isTcp = listener.EndPoint is IPEndPoint;
        var handle = CreateStream(isTcp);
        var listening = new Listener(handle, listener, isTcp, this);
        Check(isTcp ? LibuvNative.uv_tcp_open(handle, listenFd) : LibuvNative.uv_pipe_open(handle, listenFd), "opening the listening socket");
        Check(LibuvNative.uv_listen(handle, Settings.Backlog, &OnConnection), "uv_listen");
        _listeners.Add(listening);
    }

    public override void StopListening(NativeConnectionListener listener)
    {
        for (var i = _listeners.Count - 1; i >= 0; i--)
        {
            if (_listeners[i].Owner == listener)
            {
                // uv_close closes the descriptor right away; the handle memory goes in the close callback.
                _listeners[i].Close();
                _listeners.RemoveAt(i);
            }
        }
    }

    /// <summary>Logs an exception caught at a libuv callback boundary (it must not unwind into C).</summary>
    public void ReportCallbackFailure(Exception error) => TransportLog.ScheduledWorkFailed(Logger, Name, error);

    protected override void RunLoop()
    {
        while (!StopRequested)
        {
            RunScheduledWork();
            _ = LibuvNative.uv_run(_loop, HasScheduledWork ? LibuvNative.RunNoWait : LibuvNative.RunOnce);
        }
    }

    protected override void Wake() => _ = LibuvNative.uv_async_send(_async);

    protected override void ReleaseResources()
    {
        foreach (var listener in _listeners)
        {
            listener.Close();
        }

        _listeners.Clear();
        LibuvNative.uv_close(_async, &OnHandleClosed);

        // Let the close callbacks of every handle run before the loop is closed and freed.
        while (LibuvNative.uv_loop_alive(_loop) != 0)
        {
            _ = LibuvNative.uv_run(_loop, LibuvNative.RunNoWait);
        }

        _ = LibuvNative.uv_loop_close(_loop);
        NativeMemory.Free((void*)_loop);
        _self.Free();
    }

    private static void Check(int result, string operation)
    {
        if (result != 0)
        {
            throw new IOException($"{operation} failed: {LibuvNative.Describe(result)}.");
        }
    }

    private nint CreateStream(bool isTcp)
    {
        var handle = (nint)NativeMemory.AllocZeroed(LibuvNative.uv_handle_size(isTcp ? LibuvNative.HandleTypeTcp : LibuvNative.HandleTypeNamedPipe));
        var result = isTcp ? LibuvNative.uv_tcp_init(_loop, handle) : LibuvNative.uv_pipe_init(_loop, handle, 0);
        if (result != 0)
        {
            NativeMemory.Free((void*)handle);
            Check(result, "initialising a stream handle");
        }

        return handle;
    }

    private void Accept(Listener listener, int status)
    {
        if (status < 0)
        {
            TransportLog.AcceptFailed(Logger, listener.Owner.EndPoint, LibuvNative.Describe(status));
            return;
        }

        var client = CreateStream(listener.IsTcp);
        int fd;
        var result = LibuvNative.uv_accept(listener.Handle, client);
        if (result == 0)
        {
            result = LibuvNative.uv_fileno(client, &fd);
        }
        else
        {
            fd = -1;
        }

        if (result != 0)
        {
            TransportLog.AcceptFailed(Logger, listener.Owner.EndPoint, LibuvNative.Describe(result));
            LibuvNative.uv_close(client, &OnHandleClosed);
            return;
        }

        if (listener.IsTcp && Settings.NoDelay)
        {
            _ = LibuvNative.uv_tcp_nodelay(client, 1);
        }

        OnAccepted(new LibuvSocket(fd, client, this), listener.Owner, SocketAddressCodec.RemoteEndPoint(fd));
    }

    [UnmanagedCallersOnly]
    private static void OnAsync(nint handle)
    {
        var loop = (LibuvLoop)GCHandle.FromIntPtr(LibuvNative.Data(handle)).Target!;

        // The scheduled work itself runs in RunLoop, right after this iteration.
        loop.ResetWake();
    }

    [UnmanagedCallersOnly]
    private static void OnConnection(nint server, int status)
    {
        var listener = (Listener)GCHandle.FromIntPtr(LibuvNative.Data(server)).Target!;
        try
        {
            listener.Loop.Accept(listener, status);
        }
        catch (Exception error)
        {
            listener.Loop.ReportCallbackFailure(error);
        }
    }

    [UnmanagedCallersOnly]
    private static void OnHandleClosed(nint handle) => NativeMemory.Free((void*)handle);

    [UnmanagedCallersOnly]
    private static void OnListenerClosed(nint handle)
    {
        GCHandle.FromIntPtr(LibuvNative.Data(handle)).Free();
        NativeMemory.Free((void*)handle);
    }

    /// <summary>A listening stream handle, pointing back at its listener through a GC handle.</summary>
    private sealed class Listener
    {
        public Listener(nint handle, NativeConnectionListener owner, bool isTcp, LibuvLoop loop)
        {
            Handle = handle;
            Owner = owner;
            IsTcp = isTcp;
            Loop = loop;
            LibuvNative.Data(handle) = GCHandle.ToIntPtr(GCHandle.Alloc(this));
        }

        public nint Handle { get; }

        public NativeConnectionListener Owner { get; }

        public bool IsTcp { get; }

        public LibuvLoop Loop { get; }

        public void Close() => LibuvNative.uv_close(Handle, &OnListenerClosed);
    }
}
