using System.Buffers;
using System.Collections.Concurrent;
using System.IO.Pipelines;
using System.Net;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// One transport thread: a backend's event loop plus the work queue that makes it a <see cref="PipeScheduler"/>.
/// Every socket operation of the connections it owns runs on this thread; other threads reach it through
/// <see cref="Schedule"/>, which wakes the loop at most once per batch of queued items.
/// </summary>
internal abstract class TransportLoop : PipeScheduler
{
    /// <summary>Cross-thread items run per iteration, so a flood of flushes cannot starve I/O completions.</summary>
    private const int MaxRemoteItemsPerIteration = 1024;

    private readonly ConcurrentQueue<WorkItem> _remoteWork = new();
    private readonly Queue<WorkItem> _localWork = new();
    private readonly TaskCompletionSource _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly HashSet<TransportConnection> _connections = [];

    [ThreadStatic]
    private static TransportLoop? t_current;
    private int _wakePending;
    private int _threadId = -1;
    private volatile bool _stopRequested;
    private volatile bool _stopped;

    protected TransportLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger)
    {
        Index = index;
        Settings = settings;
        MemoryPool = memoryPool;
        Logger = logger;
        Name = $"{settings.Kind} loop {index}";
    }

    public int Index { get; }

    public string Name { get; }

    public TransportSettings Settings { get; }

    public MemoryPool<byte> MemoryPool { get; }

    protected ILogger Logger { get; }

    public bool IsLoopThread => Environment.CurrentManagedThreadId == _threadId;

    /// <summary>The loop whose thread is running the caller; null on any other thread.</summary>
    public static TransportLoop? Current => t_current;

    /// <summary>Whether <see cref="Adopt"/> can take a connected socket (a backend over plain descriptors can).</summary>
    public virtual bool CanAdopt => false;

    /// <summary>Where a connection's send pump runs: this loop, unless the backend can send from any thread.</summary>
    public virtual PipeScheduler SendScheduler => this;

    /// <summary>Connections accepted by this loop and not closed yet (loop thread only).</summary>
    protected IReadOnlyCollection<TransportConnection> Connections => _connections;

    protected bool StopRequested => _stopRequested;

    protected bool HasScheduledWork => _localWork.Count != 0 || !_remoteWork.IsEmpty;

    public void Start()
    {
        var thread = new Thread(static state => ((TransportLoop)state!).ThreadMain())
        {
            IsBackground = true,
            Name = Name,
        };
        thread.UnsafeStart(this);
    }

    /// <summary>Asks the loop to close what it still owns and exit; completes when the thread has ended.</summary>
    public Task StopAsync()
    {
        _stopRequested = true;
        Wake();
        return _exited.Task;
    }

    public override void Schedule(Action<object?> action, object? state)
    {
        if (IsLoopThread)
        {
            _localWork.Enqueue(new WorkItem(action, state));
            return;
        }

        if (_stopped)
        {
            // Nothing runs on this thread any more; late completions of torn-down connections go to the pool.
            System.Threading.ThreadPool.UnsafeQueueUserWorkItem(action, state, preferLocal: false);
            return;
        }

        _remoteWork.Enqueue(new WorkItem(action, state));
        if (Interlocked.CompareExchange(ref _wakePending, 1, 0) == 0)
        {
            Wake();
        }
    }

    /// <summary>Runs <paramref name="action"/> on the loop thread (control path: bind, unbind).</summary>
    public Task InvokeAsync(Action action)
    {
        var completion = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Schedule(_ =>
        {
            try
            {
                action();
                completion.SetResult();
            }
            catch (Exception error)
            {
                completion.SetException(error);
            }
        }, null);
        return completion.Task;
    }

    /// <summary>Starts accepting on <paramref name="listenFd"/> (owned by the loop from now on). Loop thread.</summary>
    public abstract void StartListening(int listenFd, NativeConnectionListener listener);

    /// <summary>Stops accepting for <paramref name="listener"/> and closes its descriptor. Loop thread.</summary>
    public abstract void StopListening(NativeConnectionListener listener);

    /// <summary>The backend's event loop; returns once <see cref="StopRequested"/> is set.</summary>
    protected abstract void RunLoop();

    /// <summary>Interrupts the backend's wait from another thread.</summary>
    protected abstract void Wake();

    /// <summary>Releases the backend's loop resources (epoll fd, ring, libuv loop) after <see cref="RunLoop"/> returned.</summary>
    protected abstract void ReleaseResources();

    /// <summary>Called by the backend once it consumed a wake-up, before it runs the scheduled work.</summary>
    protected void ResetWake() => Volatile.Write(ref _wakePending, 0);

    protected void RunScheduledWork()
    {
        for (var count = _localWork.Count; count > 0; count--)
        {
            Run(_localWork.Dequeue());
        }

        for (var i = 0; i < MaxRemoteItemsPerIteration && _remoteWork.TryDequeue(out var item); i++)
        {
            Run(item);
        }
    }

    /// <summary>Wraps an accepted socket in a connection, starts its pumps and hands it to Kestrel. Loop thread.</summary>
    protected void OnAccepted(LoopSocket socket, NativeConnectionListener listener, EndPoint? remoteEndPoint)
    {
        var connection = new TransportConnection(socket, this, listener.EndPoint, remoteEndPoint);
        _connections.Add(connection);
        connection.Start();
        listener.Publish(connection);
    }

    /// <summary>
    /// Takes a connected client socket (a forward's connection) into this loop: from now on its receives and sends
    /// run here, like an accepted connection's, and so do the continuations of whoever reads it inline. Loop thread.
    /// </summary>
    public TransportConnection AdoptConnected(int fd, EndPoint remoteEndPoint)
    {
        var connection = new TransportConnection(Adopt(fd), this, remoteEndPoint, remoteEndPoint);
        _connections.Add(connection);
        connection.Start();
        return connection;
    }

    /// <summary>Wraps a connected descriptor in the backend's socket (see <see cref="CanAdopt"/>). Loop thread.</summary>
    protected virtual LoopSocket Adopt(int fd) => throw new NotSupportedException($"The {Settings.Kind} transport cannot own client connections.");

    /// <summary>Forgets a connection whose socket was closed. Loop thread.</summary>
    internal void OnClosed(TransportConnection connection) => _connections.Remove(connection);

    private void Run(WorkItem item)
    {
        try
        {
            item.Action(item.State);
        }
        catch (Exception error)
        {
            TransportLog.ScheduledWorkFailed(Logger, Name, error);
        }
    }

    private void ThreadMain()
    {
        _threadId = Environment.CurrentManagedThreadId;
        t_current = this;
        try
        {
            RunLoop();
        }
        catch (Exception error)
        {
            TransportLog.LoopFailed(Logger, Name, error);
        }
        finally
        {
            // Whatever is still open when the host tears the transport down is aborted, not leaked.
            foreach (var connection in _connections.ToArray())
            {
                connection.CloseOnLoopStop();
            }

            _connections.Clear();
            _stopped = true;
            while (_localWork.TryDequeue(out var local))
            {
                System.Threading.ThreadPool.UnsafeQueueUserWorkItem(local.Action, local.State, preferLocal: false);
            }

            while (_remoteWork.TryDequeue(out var remote))
            {
                System.Threading.ThreadPool.UnsafeQueueUserWorkItem(remote.Action, remote.State, preferLocal: false);
            }

            ReleaseResources();
            _exited.TrySetResult();
        }
    }

    private readonly record struct WorkItem(Action<object?> Action, object? State);
}
