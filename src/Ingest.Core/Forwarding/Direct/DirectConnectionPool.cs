namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// The keep-alive connections of one loop to one back-end, for <see cref="ClientStrategy.LoopDirect"/>: idle ones are
/// taken last-in first-out (the warmest first), a new one is opened while there are fewer than the limit, and at the
/// limit a forward is pipelined behind those in flight on the least busy connection (<see cref="DirectConnection"/>)
/// rather than waiting for one to come back. A connection past its lifetime or left unusable by an exchange takes no
/// new exchange and is closed once the last one on it is done. Forwards on the loop's own thread are the usual callers;
/// the lock makes any other thread safe too.
/// </summary>
/// <remarks>
/// Hundreds of forwards in flight on as many connections cost both services per connection, not per request; a few
/// connections carrying them pipelined cost less (docs/notebook/fast-path-at-300-connections.md#pipelined-forwards).
/// Without a limit a forward never waits behind another, as with HttpClient's default.
/// </remarks>
internal sealed class DirectConnectionPool(Func<CancellationToken, ValueTask<Stream>> connect, int maxConnections, TimeSpan lifetime) : IAsyncDisposable
{
    private readonly Lock _lock = new();
    private readonly Stack<DirectConnection> _idle = new();
    private readonly List<DirectConnection> _open = new();
    private readonly long _lifetimeMs = (long)lifetime.TotalMilliseconds;
    private TaskCompletionSource? _opening;
    private int _slots;
    private bool _disposed;

    /// <summary>Connections open now (or being opened), idle or in use.</summary>
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
        DirectConnection? taken = null;
        List<DirectConnection>? expired = null;
        lock (_lock)
        {
            while (taken is null && _idle.TryPop(out var connection))
            {
                connection.Idle = false;
                if (Usable(connection))
                {
                    connection.Held++;
                    taken = connection;
                }
                else if (connection.Held == 0 && _open.Remove(connection))
                {
                    // Past its lifetime while it waited.
                    _slots--;
                    (expired ??= []).Add(connection);
                }
            }
        }

        foreach (var connection in expired ?? [])
        {
            _ = DisposeQuietlyAsync(connection);
        }

        return taken;
    }

    /// <summary>A connection for an exchange: an idle one, a new one, or, at the limit, the least busy one (the
    /// exchange is pipelined behind those on it). <paramref name="fresh"/> skips the idle ones.</summary>
    public async ValueTask<DirectConnection> RentAsync(bool fresh, CancellationToken cancellationToken)
    {
        if (!fresh && TryTakeIdle() is { } idle)
        {
            return idle;
        }

        while (true)
        {
            Task opened;
            lock (_lock)
            {
                ObjectDisposedException.ThrowIf(_disposed, this);
                if (maxConnections == 0 || _slots < maxConnections)
                {
                    _slots++;
                    break;
                }

                if (LeastBusy() is { } busy)
                {
                    busy.Held++;
                    return busy;
                }

                if (_slots == _open.Count)
                {
                    // Every connection at the limit is closing: one more until they have.
                    _slots++;
                    break;
                }

                // At the limit with the connections still opening: the first one opened takes this exchange too.
                opened = (_opening ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
            }

            await opened.WaitAsync(cancellationToken);
        }

        try
        {
            var connection = new DirectConnection(await connect(cancellationToken)) { Held = 1 };
            TaskCompletionSource? opening;
            lock (_lock)
            {
                _open.Add(connection);
                (opening, _opening) = (_opening, null);
            }

            opening?.TrySetResult();
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

    /// <summary>Takes a connection back after an exchange: idle for the next one once nothing is in flight on it, or
    /// closed once nothing is in flight on it if it may not be used again.</summary>
    public void Return(DirectConnection connection)
    {
        var close = false;
        lock (_lock)
        {
            connection.Held--;
            if (!Usable(connection) || _disposed)
            {
                close = connection.Held == 0 && _open.Remove(connection);
                if (close)
                {
                    _slots--;
                }
            }
            else if (connection.Held == 0 && !connection.Idle)
            {
                connection.Idle = true;
                _idle.Push(connection);
            }
        }

        if (close)
        {
            _ = DisposeQuietlyAsync(connection);
        }
    }

    /// <summary>Takes back a connection whose exchange failed: it takes no new exchange and is closed once the last
    /// one on it is done.</summary>
    public void Close(DirectConnection connection)
    {
        connection.Retire();
        Return(connection);
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
            foreach (var connection in idle)
            {
                _open.Remove(connection);
                _slots--;
            }
        }

        foreach (var connection in idle)
        {
            await DisposeQuietlyAsync(connection);
        }
    }

    private bool Usable(DirectConnection connection) => connection.Reusable && Environment.TickCount64 - connection.OpenedAt < _lifetimeMs;

    // The usable connection with the fewest exchanges in flight (under the lock).
    private DirectConnection? LeastBusy()
    {
        DirectConnection? least = null;
        foreach (var connection in _open)
        {
            if (Usable(connection) && (least is null || connection.Held < least.Held))
            {
                least = connection;
            }
        }

        return least;
    }

    // A connection that never opened gives its slot back (a forward waiting for it opens one of its own).
    private void Release()
    {
        TaskCompletionSource? opening;
        lock (_lock)
        {
            _slots--;
            (opening, _opening) = (_opening, null);
        }

        opening?.TrySetResult();
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
