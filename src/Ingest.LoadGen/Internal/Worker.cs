using System.Diagnostics;
using System.Net.Sockets;
using Ingest.LoadGen.Internal.Native;
using Ingest.Wire.Http1;
using Ingest.Wire.Linux;

namespace Ingest.LoadGen.Internal;

/// <summary>
/// One event-loop thread and the connections it owns, as a wrk thread: a level-triggered epoll set, one
/// recv per readable event, and the next request written straight after the response that freed its slot
/// (several, pipelined, in one send). Per request that is a send and a recv plus a share of an epoll_wait;
/// no allocation, no lock, no thread hop. Open loop adds a timerfd that wakes the loop at the next due time.
/// </summary>
internal sealed class Worker
{
    /// <summary>Timeouts and connect retries are checked this often; also the longest epoll wait, so a stop
    /// request is seen within it.</summary>
    private static readonly long HousekeepingTicks = Stopwatch.Frequency / 100;

    /// <summary>Pause after a failed connect before the next attempt, so a dead port is not hammered.</summary>
    private static readonly long ConnectRetryTicks = Stopwatch.Frequency / 100;

    /// <summary>How long the end of a run waits for the server to close after the client's FIN: the answers of the
    /// requests in flight at the end, on a server that is not stuck.</summary>
    private static readonly long LingerTicks = Stopwatch.Frequency;

    private const ulong TimerData = ulong.MaxValue;
    private const int MaxEvents = 256;

    private readonly RunState _run;
    private readonly RequestSet _requests;
    private readonly byte[] _address;
    private readonly AddressFamily _family;
    private readonly int _index;
    private readonly int _workers;
    private readonly Connection[] _connections;
    private readonly int[] _idle;
    private readonly int[] _reconnect;
    private readonly byte[] _events = new byte[MaxEvents * LinuxSockets.EpollEventSize];
    private readonly byte[] _batch;
    private readonly long _frequency = Stopwatch.Frequency;

    private int _epoll = -1;
    private int _timer = -1;
    private long _timerDue;
    private int _idleHead;
    private int _idleCount;
    private int _reconnectHead;
    private int _reconnectCount;
    private int _inFlight;
    private int _nextRequest;
    private long _openNext;
    private long _nextHousekeeping;

    public Worker(RunState run, RequestSet requests, byte[] address, AddressFamily family, int index, int workers, int connections, int pipeline, int seconds)
    {
        _run = run;
        _requests = requests;
        _address = address;
        _family = family;
        _index = index;
        _workers = workers;
        _connections = new Connection[connections];
        for (var i = 0; i < connections; i++)
        {
            _connections[i] = new Connection(i, pipeline, requests.IsHead);
        }

        _idle = new int[connections];
        _reconnect = new int[connections];
        var largest = 0;
        foreach (var request in requests.Requests)
        {
            largest = Math.Max(largest, request.Length);
        }

        _batch = new byte[largest * pipeline];
        Statistics = new WorkerStatistics(seconds);
    }

    public WorkerStatistics Statistics { get; }

    public void Run()
    {
        try
        {
            _epoll = LinuxSockets.CreateEpoll();
            if (_run.IsOpenLoop)
            {
                _timer = LinuxSockets.CreateTimer();
                LinuxSockets.Add(_epoll, _timer, LibC.EPOLLIN, TimerData);
            }

            var now = Stopwatch.GetTimestamp();
            foreach (var connection in _connections)
            {
                Connect(connection, now);
            }

            Loop();
            Linger();
        }
        finally
        {
            foreach (var connection in _connections)
            {
                Close(connection);
            }

            if (_timer >= 0)
            {
                LinuxSockets.Close(_timer);
            }

            if (_epoll >= 0)
            {
                LinuxSockets.Close(_epoll);
            }
        }
    }

    private void Loop()
    {
        var stats = Statistics;
        while (true)
        {
            var now = Stopwatch.GetTimestamp();
            if (_run.StopRequested || now >= _run.End)
            {
                stats.StopReason = _run.StopRequested && now < _run.End ? LoadStopReason.Cancelled : LoadStopReason.Duration;
                break;
            }

            if (_inFlight == 0 && _run.BudgetExhausted && now >= _run.MeasureStart)
            {
                stats.StopReason = LoadStopReason.Requests;
                break;
            }

            ReconnectQueued(now);
            if (now >= _nextHousekeeping)
            {
                Housekeeping(now);
                _nextHousekeeping = now + HousekeepingTicks;
            }

            if (_run.IsOpenLoop)
            {
                Dispatch(now);
            }

            var wait = Math.Min(_nextHousekeeping, _run.End) - now;
            var timeout = (int)Math.Clamp((wait + _frequency / 1000 - 1) * 1000 / _frequency, 0, 1000);
            var count = LinuxSockets.Wait(_epoll, _events, timeout);
            now = Stopwatch.GetTimestamp();
            if (now >= _run.End)
            {
                continue; // responses after the end belong to no phase; the loop's top stops
            }

            for (var i = 0; i < count; i++)
            {
                var data = LinuxSockets.DataAt(_events, i);
                if (data == TimerData)
                {
                    LinuxSockets.DrainTimer(_timer);
                    _timerDue = 0;
                    continue;
                }

                var connection = _connections[(int)(uint)data];
                if (connection.Generation != (uint)(data >> 32))
                {
                    continue; // an event for a socket closed earlier in this batch
                }

                var events = LinuxSockets.EventsAt(_events, i);
                if (connection.State == ConnectionState.Connecting)
                {
                    FinishConnect(connection, now);
                    continue;
                }

                if ((events & (LibC.EPOLLIN | LibC.EPOLLERR | LibC.EPOLLHUP | LibC.EPOLLRDHUP)) != 0)
                {
                    Read(connection, now);
                }

                if ((events & LibC.EPOLLOUT) != 0 && connection.State == ConnectionState.Open &&
                    connection.Generation == (uint)(data >> 32))
                {
                    Flush(connection, now);
                }
            }
        }

        var end = Stopwatch.GetTimestamp();
        stats.StoppedAt = stats.StopReason == LoadStopReason.Duration ? _run.End : end;

        foreach (var connection in _connections)
        {
            for (var i = 0; i < connection.InFlight; i++)
            {
                if (connection.DueAt(i) >= _run.MeasureStart)
                {
                    stats.InFlightAtEnd++;
                }
            }
        }

        if (_run.IsOpenLoop && !_run.BudgetExhausted && !HasFreeConnection())
        {
            // Requests that were due in the measured phase but found no free connection before the end
            // (with a free connection, the last ones were only waiting for the loop's next turn).
            var stop = Math.Min(end, _run.End);
            for (var due = DueTime(_openNext); due <= stop; due = DueTime(++_openNext))
            {
                if (due >= _run.MeasureStart)
                {
                    stats.Unsent++;
                    stats.Due++;
                }
            }
        }
    }

    /// <summary>
    /// Ends the run as a polite client does: tells the server no more requests come (FIN), reads whatever it still
    /// sends — the answers of the requests in flight at the end, which count nowhere — and closes once it has closed,
    /// or after <see cref="LingerTicks"/>. Closing at once with those answers unread makes the kernel reset the
    /// connection, and a reset is an error the server handles (an exception per connection on .NET's Kestrel): every
    /// run's end would show as a burst of them in the server's counters, though no client of the steady state did it.
    /// </summary>
    private void Linger()
    {
        var lingering = 0;
        foreach (var connection in _connections)
        {
            if (connection.State == ConnectionState.Open && LinuxSockets.ShutdownSend(connection.Fd) == 0)
            {
                LinuxSockets.Modify(_epoll, connection.Fd, LibC.EPOLLIN | LibC.EPOLLRDHUP, connection.EpollData);
                connection.State = ConnectionState.Lingering;
                lingering++;
            }
        }

        var deadline = Stopwatch.GetTimestamp() + LingerTicks;
        for (var now = Stopwatch.GetTimestamp(); lingering > 0 && now < deadline; now = Stopwatch.GetTimestamp())
        {
            var count = LinuxSockets.Wait(_epoll, _events, (int)Math.Max(1, (deadline - now) * 1000 / _frequency));
            for (var i = 0; i < count; i++)
            {
                var data = LinuxSockets.DataAt(_events, i);
                if (data == TimerData)
                {
                    LinuxSockets.DrainTimer(_timer);
                    continue;
                }

                var connection = _connections[(int)(uint)data];
                if (connection.Generation != (uint)(data >> 32) || connection.State != ConnectionState.Lingering)
                {
                    continue;
                }

                // Read to the end of the stream (or an error); what arrives is discarded.
                int received;
                do
                {
                    received = LinuxSockets.Receive(connection.Fd, connection.Buffer);
                }
                while (received > 0);

                if (received != -Errno.EAGAIN)
                {
                    Close(connection);
                    lingering--;
                }
            }
        }
    }

    private long DueTime(long sequence) => _run.RunStart + (long)(((sequence * _workers) + _index) * _run.TicksPerRequest);

    /// <summary>Open loop: hands every request whose due time has come to a connection with a free slot,
    /// then arms the timer for the next due time. Requests that find no free connection wait (their latency
    /// still counts from their due time).</summary>
    private void Dispatch(long now)
    {
        while (true)
        {
            var due = DueTime(_openNext);
            if (due > now)
            {
                if (due != _timerDue && due < _run.End)
                {
                    LinuxSockets.ArmTimer(_timer, (due - now) * 1_000_000_000 / _frequency);
                    _timerDue = due;
                }

                return;
            }

            if (due >= _run.End)
            {
                return;
            }

            var measured = due >= _run.MeasureStart;
            var connection = PopIdle();
            if (connection is null)
            {
                return; // backlog: the next freed slot takes it
            }

            if (measured && !_run.TryReserve())
            {
                PushIdle(connection);
                return;
            }

            _openNext++;
            if (measured)
            {
                Statistics.Due++;
                Statistics.SendDelay.Record(ToMicroseconds(now - due));
            }

            connection.Push(due, now);
            _inFlight++;
            Write(connection, NextRequest(), now);
            if (connection.State == ConnectionState.Open && connection.InFlight < connection.Capacity)
            {
                PushIdle(connection);
            }
        }
    }

    /// <summary>Closed loop: fills the connection's free slots with new requests, in one send.</summary>
    private void Fill(Connection connection, long now)
    {
        var free = connection.Capacity - connection.InFlight;
        if (free <= 0 || connection.WriteFailed || now >= _run.End || _run.StopRequested)
        {
            return;
        }

        var measured = now >= _run.MeasureStart;
        var count = 0;
        for (; count < free; count++)
        {
            if (measured && !_run.TryReserve())
            {
                break;
            }

            connection.Push(now, now);
        }

        _inFlight += count;
        SendRequests(connection, count, now);
    }

    /// <summary>Writes the next <paramref name="count"/> requests of the round-robin with one send.</summary>
    private void SendRequests(Connection connection, int count, long now)
    {
        if (count == 0)
        {
            return;
        }

        if (count == 1)
        {
            Write(connection, NextRequest(), now);
            return;
        }

        var length = 0;
        for (var i = 0; i < count; i++)
        {
            var request = NextRequest();
            request.CopyTo(_batch, length);
            length += request.Length;
        }

        Write(connection, _batch.AsSpan(0, length), now);
    }

    private byte[] NextRequest()
    {
        var requests = _requests.Requests;
        var request = requests[_nextRequest];
        if (++_nextRequest == requests.Length)
        {
            _nextRequest = 0;
        }

        return request;
    }

    private void Write(Connection connection, ReadOnlySpan<byte> data, long now)
    {
        if (connection.State != ConnectionState.Open)
        {
            return; // sent once the connection is (re)established
        }

        if (connection.WriteFailed)
        {
            return;
        }

        if (connection.HasPendingOutput)
        {
            connection.AppendPending(data);
            return;
        }

        var sent = LinuxSockets.Send(connection.Fd, data);
        if (sent == data.Length)
        {
            CountWritten(sent, now);
            return;
        }

        if (sent >= 0 || sent == -Errno.EAGAIN)
        {
            sent = Math.Max(sent, 0);
            CountWritten(sent, now);
            connection.AppendPending(data[sent..]);
            connection.WantsWrite = true;
            LinuxSockets.Modify(_epoll, connection.Fd, LibC.EPOLLIN | LibC.EPOLLOUT | LibC.EPOLLRDHUP, connection.EpollData);
            return;
        }

        // The server may have answered and closed (Connection: close behind pipelined requests): its
        // responses can still be waiting in the receive buffer. Stop writing, keep reading; epoll reports
        // the dead socket as readable, and the read side decides what was answered and what failed.
        connection.WriteFailed = true;
        connection.ClearPending();
    }

    private void Flush(Connection connection, long now)
    {
        if (!connection.HasPendingOutput)
        {
            return;
        }

        var sent = LinuxSockets.Send(connection.Fd, connection.Pending.AsSpan(connection.PendingStart, connection.PendingEnd - connection.PendingStart));
        if (sent < 0)
        {
            if (sent != -Errno.EAGAIN)
            {
                connection.WriteFailed = true; // as in Write: the read side decides
                connection.ClearPending();
            }

            return;
        }

        CountWritten(sent, now);
        connection.PendingStart += sent;
        if (!connection.HasPendingOutput)
        {
            connection.ClearPending();
            connection.WantsWrite = false;
            LinuxSockets.Modify(_epoll, connection.Fd, LibC.EPOLLIN | LibC.EPOLLRDHUP, connection.EpollData);
        }
    }

    private void CountWritten(int bytes, long now)
    {
        if (now >= _run.MeasureStart)
        {
            Statistics.BytesWritten += bytes;
        }
    }

    private void Read(Connection connection, long now)
    {
        var buffer = connection.Buffer;
        var received = LinuxSockets.Receive(connection.Fd, buffer.AsSpan(connection.BufferEnd));
        if (received > 0)
        {
            if (now >= _run.MeasureStart)
            {
                Statistics.BytesRead += received;
            }

            connection.BufferEnd += received;
            ParseResponses(connection, now);
        }
        else if (received == 0)
        {
            EndOfStream(connection, now);
        }
        else if (received != -Errno.EAGAIN)
        {
            Fail(connection, connection.WriteFailed ? FailureKind.Write : FailureKind.Read, now);
        }
    }

    private void ParseResponses(Connection connection, long now)
    {
        var parser = connection.Parser;
        var buffer = connection.Buffer;
        var serverCloses = false;
        while (true)
        {
            var status = parser.Parse(buffer.AsSpan(connection.BufferStart, connection.BufferEnd - connection.BufferStart), out var used);
            connection.BufferStart += used;
            if (status == ParseStatus.NeedMore)
            {
                break;
            }

            if (status == ParseStatus.Error || connection.InFlight == 0)
            {
                // Malformed, or a response to nothing we sent: the byte stream cannot be trusted any more.
                Fail(connection, FailureKind.Parse, now);
                return;
            }

            if (status == ParseStatus.Head)
            {
                continue; // its body, if any, is skipped by the next call
            }

            Complete(connection, parser.Head.StatusCode, now);
            if (!parser.Head.KeepAlive)
            {
                serverCloses = true;
                break;
            }
        }

        if (serverCloses)
        {
            ClosedByServer(connection, now);
            return;
        }

        var left = connection.BufferEnd - connection.BufferStart;
        if (left == 0)
        {
            connection.BufferStart = 0;
            connection.BufferEnd = 0;
        }
        else if (connection.BufferStart > 0)
        {
            buffer.AsSpan(connection.BufferStart, left).CopyTo(buffer);
            connection.BufferStart = 0;
            connection.BufferEnd = left;
        }
        else if (left == buffer.Length)
        {
            Fail(connection, FailureKind.Parse, now); // a response head larger than the buffer
            return;
        }

        if (_run.IsOpenLoop)
        {
            if (connection.InFlight < connection.Capacity)
            {
                PushIdle(connection);
            }
        }
        else
        {
            Fill(connection, now);
        }
    }

    private void Complete(Connection connection, int status, long now)
    {
        var due = connection.Pop();
        _inFlight--;
        var stats = Statistics;
        if (stats.FirstResponse == long.MaxValue)
        {
            stats.FirstResponse = now - _run.RunStart;
        }

        if (due < _run.MeasureStart)
        {
            stats.WarmupRequests++;
            if (status is >= 200 and < 300)
            {
                stats.WarmupSuccessful++;
            }

            return;
        }

        stats.Responses++;
        stats.StatusCodes[status]++;
        var microseconds = ToMicroseconds(now - due);
        var second = SecondOf(now);
        stats.Latency.Record(microseconds);
        stats.RequestsPerSecond[second]++;
        if (status is < 200 or >= 300)
        {
            stats.BadResponsesPerSecond[second]++;
        }

        if (microseconds > stats.MaxLatencyPerSecond[second])
        {
            stats.MaxLatencyPerSecond[second] = microseconds;
        }
    }

    private void EndOfStream(Connection connection, long now)
    {
        if (connection.Parser.CompleteAtEndOfStream() && connection.InFlight > 0)
        {
            Complete(connection, connection.Parser.Head.StatusCode, now); // a body delimited by the close
            ClosedByServer(connection, now);
        }
        else if (connection.InFlight == 0 && connection.BufferEnd == connection.BufferStart)
        {
            ClosedByServer(connection, now); // an idle keep-alive connection closed by the server
        }
        else
        {
            Fail(connection, connection.WriteFailed ? FailureKind.Write : FailureKind.Read, now);
        }
    }

    /// <summary>The server ended the connection cleanly: reconnect at once. Requests pipelined behind the
    /// last response were never answered; they are sent again on the new connection, keeping their due time.</summary>
    private void ClosedByServer(Connection connection, long now)
    {
        if (now >= _run.MeasureStart)
        {
            Statistics.ClosedByServer++;
        }

        Close(connection);
        QueueReconnect(connection);
    }

    /// <summary>Every request in flight on the connection fails with <paramref name="kind"/>; the connection
    /// is replaced.</summary>
    private void Fail(Connection connection, FailureKind kind, long now)
    {
        FailInFlight(connection, kind, now);
        Close(connection);
        QueueReconnect(connection);
    }

    private void FailInFlight(Connection connection, FailureKind kind, long now)
    {
        var stats = Statistics;
        while (connection.InFlight > 0)
        {
            var due = connection.Pop();
            _inFlight--;
            if (due < _run.MeasureStart)
            {
                stats.WarmupRequests++;
                continue;
            }

            switch (kind)
            {
                case FailureKind.Timeout:
                    stats.Timeouts++;
                    break;
                case FailureKind.Read:
                    stats.ReadErrors++;
                    break;
                case FailureKind.Write:
                    stats.WriteErrors++;
                    break;
                default:
                    stats.ParseErrors++;
                    break;
            }

            var second = SecondOf(now);
            stats.RequestsPerSecond[second]++;
            stats.ErrorsPerSecond[second]++;
        }
    }

    /// <summary>Reconnects are queued and made at the top of the loop, never from inside the handler of
    /// another event: a server that fails every connection at once cannot recurse the stack.</summary>
    private void QueueReconnect(Connection connection)
    {
        _reconnect[(_reconnectHead + _reconnectCount++) % _reconnect.Length] = connection.Index;
    }

    private void ReconnectQueued(long now)
    {
        // Only those queued before this call: a connection failing again waits for the next turn.
        for (var n = _reconnectCount; n > 0; n--)
        {
            var connection = _connections[_reconnect[_reconnectHead]];
            _reconnectHead = (_reconnectHead + 1) % _reconnect.Length;
            _reconnectCount--;
            Connect(connection, now);
        }
    }

    private void Connect(Connection connection, long now)
    {
        if (now >= _run.End || _run.StopRequested)
        {
            connection.State = ConnectionState.Closed;
            return;
        }

        Socket socket;
        try
        {
            socket = new Socket(_family, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, Blocking = false };
        }
        catch (SocketException)
        {
            // Typically the descriptor limit (ulimit -n) with many connections: counted, retried, run goes on.
            ConnectFailed(connection, now);
            return;
        }

        connection.Socket = socket;
        connection.Fd = (int)socket.Handle;
        connection.Generation++;
        connection.ResetReceive();
        var result = LinuxSockets.StartConnect(connection.Fd, _address);
        if (result == 0)
        {
            LinuxSockets.Add(_epoll, connection.Fd, LibC.EPOLLIN | LibC.EPOLLRDHUP, connection.EpollData);
            Opened(connection, now);
        }
        else if (result == Errno.EINPROGRESS)
        {
            connection.State = ConnectionState.Connecting;
            connection.StateDeadline = now;
            LinuxSockets.Add(_epoll, connection.Fd, LibC.EPOLLOUT, connection.EpollData);
        }
        else
        {
            ConnectFailed(connection, now);
        }
    }

    private void FinishConnect(Connection connection, long now)
    {
        if (LinuxSockets.PendingError(connection.Fd) != 0)
        {
            ConnectFailed(connection, now);
            return;
        }

        LinuxSockets.Modify(_epoll, connection.Fd, LibC.EPOLLIN | LibC.EPOLLRDHUP, connection.EpollData);
        Opened(connection, now);
    }

    private void Opened(Connection connection, long now)
    {
        connection.State = ConnectionState.Open;
        if (now >= _run.MeasureStart)
        {
            Statistics.Opened++;
            if (connection.EverConnected)
            {
                Statistics.Reconnects++;
            }
        }

        connection.EverConnected = true;
        if (connection.InFlight > 0)
        {
            Resend(connection, now);
        }

        if (_run.IsOpenLoop)
        {
            if (connection.InFlight < connection.Capacity)
            {
                PushIdle(connection);
            }
        }
        else
        {
            Fill(connection, now);
        }
    }

    /// <summary>Sends again the requests a closed connection left unanswered (pipelining behind a
    /// Connection: close). Open loop keeps their due time; closed loop restarts their clock.</summary>
    private void Resend(Connection connection, long now)
    {
        for (var i = 0; i < connection.InFlight; i++)
        {
            connection.Restamp(i, _run.IsOpenLoop ? connection.DueAt(i) : now, now);
        }

        SendRequests(connection, connection.InFlight, now);
    }

    private void ConnectFailed(Connection connection, long now)
    {
        if (now >= _run.MeasureStart)
        {
            Statistics.ConnectErrors++;
        }

        // Requests left unanswered by a server that closed the previous connection cannot be sent again.
        FailInFlight(connection, FailureKind.Read, now);

        Close(connection);
        connection.State = ConnectionState.Backoff;
        connection.StateDeadline = now + ConnectRetryTicks;
    }

    private void Close(Connection connection)
    {
        if (connection.Socket is { } socket)
        {
            LinuxSockets.Remove(_epoll, connection.Fd);
            socket.Dispose();
            connection.Socket = null;
            connection.Fd = -1;
        }

        connection.Generation++;
        connection.State = ConnectionState.Closed;
        connection.WantsWrite = false;
        connection.WriteFailed = false;
        connection.ClearPending();
        connection.ResetReceive();
    }

    /// <summary>Fails requests that waited longer than the timeout, and retries connects whose pause is over.</summary>
    private void Housekeeping(long now)
    {
        var timeout = _run.TimeoutTicks;
        foreach (var connection in _connections)
        {
            switch (connection.State)
            {
                case ConnectionState.Open when connection.InFlight > 0 && now - connection.OldestSent > timeout:
                    Fail(connection, FailureKind.Timeout, now);
                    break;
                case ConnectionState.Connecting when now - connection.StateDeadline > timeout:
                    ConnectFailed(connection, now);
                    break;
                case ConnectionState.Backoff when now >= connection.StateDeadline:
                    Connect(connection, now);
                    break;
            }
        }
    }

    private bool HasFreeConnection()
    {
        foreach (var connection in _connections)
        {
            if (connection.State == ConnectionState.Open && connection.InFlight < connection.Capacity && !connection.WriteFailed)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Open loop's free connections, first in first out: a connection that still has pipeline
    /// room goes to the back, so due requests spread over idle connections before they pipeline.</summary>
    private void PushIdle(Connection connection)
    {
        if (!connection.InIdleList)
        {
            connection.InIdleList = true;
            _idle[(_idleHead + _idleCount++) % _idle.Length] = connection.Index;
        }
    }

    private Connection? PopIdle()
    {
        while (_idleCount > 0)
        {
            var connection = _connections[_idle[_idleHead]];
            _idleHead = (_idleHead + 1) % _idle.Length;
            _idleCount--;
            connection.InIdleList = false;
            if (connection.State == ConnectionState.Open && connection.InFlight < connection.Capacity && !connection.WriteFailed)
            {
                return connection;
            }
        }

        return null;
    }

    private int SecondOf(long now)
    {
        var second = (now - _run.MeasureStart) / _frequency;
        return (int)Math.Clamp(second, 0, Statistics.RequestsPerSecond.Length - 1);
    }

    private long ToMicroseconds(long ticks) => ticks * 1_000_000 / _frequency;
}
