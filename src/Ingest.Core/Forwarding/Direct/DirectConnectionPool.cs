namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// The keep-alive connections of one loop to one back-end, for <see cref="ClientStrategy.LoopDirect"/>: idle ones are
/// taken last-in first-out (the warmest first), a connection past its lifetime or left unusable by its exchange is
/// closed instead of kept, and with a connection limit a forward beyond it waits for one to come back. Forwards on the
/// loop's own thread are the usual callers; the lock makes any other thread safe too.
/// </summary>
internal sealed class DirectConnectionPool(Func<CancellationToken, ValueTask<Stream>> connect, int maxConnections, TimeSpan lifetime) : IAsyncDisposable
{
    private readonly Lock _lock = new();
    private readonly Stack<DirectConnection> _idle = new();
    private readonly List<DirectConnection> _open = new();
    private readonly Queue<TaskCompletionSource<DirectConnection?>> _waiters = new();
    private readonly long _lifetimeMs = (long)lifetime.TotalMilliseconds;
    private int _slots;
    private bool _disposed;

    /// <summary>Connections open now, idle or in use.</summary>
    public int Open
    {
        get
        {
            lock (_lock)
            {
                return _slots;
            }
        }
    }

    /// <summary>An idle connection within its lifetime, or null.</summary>
    public DirectConnection? TryTakeIdle()
    {
        while (true)
        {
            DirectConnection connection;
            lock (_lock)
            {
                if (!_idle.TryPop(out connection!))
                {
                    return null;
                }
            }

            if (!Expired(connection))
            {
                return connection;
            }

            Close(connection);
        }
    }

    /// <summary>A connection for an exchange: an idle one, a new one, or, at the limit, the next one given back.</summary>
    public async ValueTask<DirectConnection> RentAsync(bool fresh, CancellationToken cancellationToken)
    {
        if (!fresh && TryTakeIdle() is { } idle)
        {
            return idle;
        }

        TaskCompletionSource<DirectConnection?>? waiter = null;
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (maxConnections == 0 || _slots < maxConnections)
            {
                _slots++;
            }
            else
            {
                waiter = new TaskCompletionSource<DirectConnection?>(TaskCreationOptions.RunContinuationsAsynchronously);
                _waiters.Enqueue(waiter);
            }
        }

        if (waiter is not null)
        {
            // A connection handed over, or null: a slot was freed and counted for this waiter.
            await using (cancellationToken.Register(static w => ((TaskCompletionSource<DirectConnection?>)w!).TrySetCanceled(), waiter))
            {
                if (await waiter.Task is { } handed)
                {
                    return handed;
                }
            }
        }

        try
        {
            var connection = new DirectConnection(await connect(cancellationToken));
            lock (_lock)
            {
                _open.Add(connection);
            }

            return connection;
        }
        catch (Exception error) when (error is not OperationCanceledException)
        {
            Release();
            throw error as HttpRequestException
                ?? new HttpRequestException(HttpRequestError.ConnectionError, $"Could not connect to the back-end: {error.Message}", error);
        }
        catch
        {
            Release();
            throw;
        }
    }

    /// <summary>Gives a connection back after its exchange: kept for the next one if it may be, closed if not.</summary>
    public void Return(DirectConnection connection)
    {
        if (!connection.Reusable || Expired(connection))
        {
            Close(connection);
            return;
        }

        lock (_lock)
        {
            if (!_disposed)
            {
                while (_waiters.TryDequeue(out var waiter))
                {
                    if (waiter.TrySetResult(connection))
                    {
                        return;
                    }
                }

                _idle.Push(connection);
                return;
            }
        }

        _ = DisposeQuietlyAsync(connection);
    }

    /// <summary>Closes a connection that failed or will not be reused, and frees its slot.</summary>
    public void Close(DirectConnection connection)
    {
        lock (_lock)
        {
            _open.Remove(connection);
        }

        Release();
        _ = DisposeQuietlyAsync(connection);
    }

    /// <summary>Adds every open connection, idle or in an exchange, to <paramref name="into"/> (for the deadline sweep).</summary>
    public void CopyOpen(List<DirectConnection> into)
    {
        lock (_lock)
        {
            into.AddRange(_open);
        }
    }

    public async ValueTask DisposeAsync()
    {
        DirectConnection[] idle;
        lock (_lock)
        {
            _disposed = true;
            idle = [.. _idle];
            _idle.Clear();
            _open.Clear();
            while (_waiters.TryDequeue(out var waiter))
            {
                waiter.TrySetException(new ObjectDisposedException(nameof(DirectConnectionPool)));
            }
        }

        foreach (var connection in idle)
        {
            await DisposeQuietlyAsync(connection);
        }
    }

    private bool Expired(DirectConnection connection) => Environment.TickCount64 - connection.OpenedAt >= _lifetimeMs;

    // A slot freed: the next waiter opens a connection of its own in it, or the count goes down.
    private void Release()
    {
        lock (_lock)
        {
            while (_waiters.TryDequeue(out var waiter))
            {
                if (waiter.TrySetResult(null))
                {
                    return;
                }
            }

            _slots--;
        }
    }

    private static async Task DisposeQuietlyAsync(DirectConnection connection)
    {
        try
        {
            await connection.DisposeAsync();
        }
        catch (Exception)
        {
            // Closing a connection that already failed: nothing to report.
        }
    }
}
