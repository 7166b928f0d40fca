using System.Runtime.CompilerServices;
using System.Text;
using Ingest.Core.Threading;
using Polly;
using Polly.CircuitBreaker;
using Polly.Timeout;

namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// <see cref="ClientStrategy.LoopDirect"/>: each transport loop keeps its own keep-alive connections to every back-end
/// (<see cref="DirectConnectionPool"/>), and a forward on a loop thread writes its request into one of them and reads
/// the answer back on that thread (<see cref="DirectConnection"/>) — no HttpClient, no request or response message
/// objects, no handler chain. A forward from any other thread takes the loops' pools in turn.
/// </summary>
/// <remarks>
/// The forward's resilience is the one the HttpClient strategies get from <see cref="BackEndResilience"/>, from the
/// same options, kept here in the forward's own loop instead of four nested Polly strategies (their async layers,
/// two timers per forward and their allocations cost the front-end CPU on every request:
/// docs/notebook/fast-path.md#the-forward-without-polly-2026-11-26): every attempt carries the forward's
/// Idempotency-Key (and the shared key); the forward's deadline
/// (<see cref="ForwardingOptions.TimeoutMilliseconds"/>) and each attempt's
/// (<see cref="ForwardingOptions.AttemptTimeoutMilliseconds"/>, never past the forward's) are kept by one sweep of the
/// open connections every <see cref="SweepPeriod"/> (a twentieth of the shorter deadline, 5 to 100 ms), which cancels an
/// exchange that is due or whose caller went away; transient failures (<see cref="BackEndReply.IsTransient"/>) are
/// retried after an exponential, jittered back-off while the forward's time allows; one <see cref="ForwardBreaker"/>
/// per back-end authority is shared by every loop. Failures end as the forwarder maps them: TimeoutRejectedException
/// (504), BrokenCircuitException (503), HttpRequestException (502), and
/// <see cref="ForwardOutcomeUnknownException"/> (504) for a forward one of whose attempts may have landed
/// (<see cref="UnsettledForwards"/>).
/// </remarks>
internal sealed class LoopDirectSender : IBackEndSender, IAsyncDisposable
{
    private readonly IForwardLoops _loops;
    private readonly ForwardBreaker?[] _breakers;
    private readonly byte[][] _heads;
    private readonly DirectConnectionPool[][] _pools;
    private readonly int _timeoutMs;
    private readonly int _attemptTimeoutMs;
    private readonly int _retries;
    private readonly int _retryBaseDelayMs;
    private readonly ITimer _sweep;
    private readonly List<DirectConnection> _sweeping = [];
    private int _sweepRunning;
    private uint _next;

    public LoopDirectSender(BackEndResilience resilience, BackEndHandlerFactory handlers, IForwardLoops loops, ForwardingOptions options, string? sharedKey)
        : this(resilience, handlers, loops, options, sharedKey, TimeProvider.System)
    {
    }

    internal LoopDirectSender(BackEndResilience resilience, BackEndHandlerFactory handlers, IForwardLoops loops, ForwardingOptions options, string? sharedKey, TimeProvider time)
    {
        if (loops.Count == 0)
        {
            throw new InvalidOperationException(ForwardingOptionsValidator.LoopNeedsOwnTransport(ClientStrategy.LoopDirect));
        }

        _loops = loops;
        var targets = resilience.Targets;
        _breakers = resilience.PerAuthority(() => ForwardBreaker.From(options, time));
        _heads = targets.Select(target => Head(target, sharedKey)).ToArray();
        _timeoutMs = options.TimeoutMilliseconds;
        _attemptTimeoutMs = options.AttemptTimeoutMilliseconds;
        _retries = options.RetryAttempts;
        _retryBaseDelayMs = options.RetryBaseDelayMilliseconds;
        var lifetime = TimeSpan.FromSeconds(options.PooledConnectionLifetimeSeconds);
        _pools = new DirectConnectionPool[loops.Count][];
        for (var loop = 0; loop < _pools.Length; loop++)
        {
            var owner = loop;
            _pools[loop] = targets.Select(target => new DirectConnectionPool(
                async cancellationToken => await loops.ConnectAsync(owner, await handlers.EndPointAsync(target.DnsSafeHost, target.Port, cancellationToken), cancellationToken),
                options.MaxConnectionsPerServer,
                lifetime)).ToArray();
        }

        SweepPeriod = TimeSpan.FromMilliseconds(Math.Clamp(Math.Min(_timeoutMs, _attemptTimeoutMs) / 20, 5, 100));
        _sweep = time.CreateTimer(static sender => ((LoopDirectSender)sender!).Sweep(), this, SweepPeriod, SweepPeriod);
    }

    /// <summary>How often the deadlines are checked: how late, at most, a due exchange is cancelled.</summary>
    internal TimeSpan SweepPeriod { get; }

    /// <summary>Connections open now to back-end <paramref name="target"/>, over every loop.</summary>
    internal int OpenConnections(int target) => _pools.Sum(pools => pools[target].Open);

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    public async ValueTask<BackEndReply> SendAsync(int target, ForwardPayload payload, CancellationToken cancellationToken)
    {
        var breaker = _breakers[target];
        var deadline = Environment.TickCount64 + _timeoutMs;
        var unsettled = false;
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                breaker?.Enter();
            }
            catch (BrokenCircuitException open) when (unsettled)
            {
                throw UnsettledForwards.Unknown(open);
            }

            var attemptDeadline = Math.Min(Environment.TickCount64 + _attemptTimeoutMs, deadline);
            BackEndReply reply = default;
            Exception? error = null;
            try
            {
                reply = await AttemptAsync(target, payload, attemptDeadline, cancellationToken);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                breaker?.Abandon();
                throw;
            }
            catch (Exception failure)
            {
                error = failure;
            }

            var transient = BackEndReply.IsTransient(error is null ? Outcome.FromResult(reply) : Outcome.FromException<BackEndReply>(error));
            breaker?.Record(failed: transient);
            if (transient && error is not null && UnsettledForwards.MayHaveLanded(error))
            {
                unsettled = true;
            }

            if (error is TimeoutRejectedException && attemptDeadline == deadline)
            {
                // The forward's own deadline: 504, whatever came before.
                throw error;
            }

            var delay = transient && attempt < _retries ? Backoff(attempt) : -1;
            if (delay >= 0 && Environment.TickCount64 + delay >= deadline)
            {
                // The next attempt could not start within the forward's time.
                throw new TimeoutRejectedException($"The forward's deadline ({_timeoutMs} ms) passed before it could be retried.", TimeSpan.FromMilliseconds(_timeoutMs));
            }

            if (delay < 0)
            {
                return error switch
                {
                    null when reply.IsSuccess || !unsettled => reply,
                    null => throw UnsettledForwards.Unknown(null, reply.Status),
                    TimeoutRejectedException => throw error,
                    _ when unsettled || UnsettledForwards.MayHaveLanded(error) => throw UnsettledForwards.Unknown(error),
                    _ => throw error,
                };
            }

            await Task.Delay(delay, cancellationToken);
        }
    }

    /// <summary>The wait before retry <paramref name="attempt"/> + 1: the base delay doubled per retry, jittered
    /// between half and one and a half times that, so retries of many forwards spread out.</summary>
    private int Backoff(int attempt) => (int)(_retryBaseDelayMs * Math.Pow(2, attempt) * (0.5 + Random.Shared.NextDouble()));

    public async ValueTask DisposeAsync()
    {
        await _sweep.DisposeAsync();
        foreach (var pool in _pools.SelectMany(pools => pools))
        {
            await pool.DisposeAsync();
        }
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private async ValueTask<BackEndReply> AttemptAsync(int target, ForwardPayload payload, long deadline, CancellationToken cancellationToken)
    {
        var loop = _loops.Current;
        var pool = _pools[loop >= 0 ? loop : (int)(Interlocked.Increment(ref _next) % (uint)_pools.Length)][target];
        StaleConnectionException? stale = null;
        while (true)
        {
            var connection = stale is null ? pool.TryTakeIdle() : null;
            if (connection is null)
            {
                try
                {
                    connection = await RentAsync(pool, fresh: stale is not null, deadline, cancellationToken);
                }
                catch (HttpRequestException refused) when (stale is not null)
                {
                    // The kept connection was closed with the request written and no answer: a back-end that died right
                    // after reading it may have persisted it. A refusal now does not settle that.
                    throw new HttpRequestException(HttpRequestError.ResponseEnded,
                        "The back-end closed a kept connection without answering, then refused a new one: the request may have been read.", refused);
                }
            }

            try
            {
                var reply = await connection.ExchangeAsync(_heads[target], payload, deadline, cancellationToken);

                // Closed if it cannot carry another exchange (the sweep aborted it as this answer came: the answer counts).
                pool.Return(connection);
                return reply;
            }
            catch (Exception error) when (connection.Aborted)
            {
                // Cancelled by the sweep: the caller went away, this attempt's deadline passed, or the deadline of another
                // attempt pipelined on the same connection did (its answer would have come before this one's).
                pool.Close(connection);
                cancellationToken.ThrowIfCancellationRequested();
                if (Environment.TickCount64 >= deadline)
                {
                    throw new TimeoutRejectedException($"The attempt's deadline ({_attemptTimeoutMs} ms, or the forward's) passed.", TimeSpan.FromMilliseconds(_attemptTimeoutMs), error);
                }

                throw new HttpRequestException(HttpRequestError.Unknown, "The connection was aborted for another forward on it, past its deadline, before this forward's answer.", error);
            }
            catch (StaleConnectionException error) when (stale is null)
            {
                // The back-end had closed this kept connection (its keep-alive timeout, a restart) and answered nothing
                // of the request: again, on a new connection (never stale, so this happens at most once per attempt).
                pool.Close(connection);
                stale = error;
            }
            catch
            {
                // Failed mid-exchange: the connection's state is unknown.
                pool.Close(connection);
                throw;
            }
        }
    }

    /// <summary>A new connection, or at the connection limit the least busy one: the slow path, with a deadline of its own.</summary>
    private static async ValueTask<DirectConnection> RentAsync(DirectConnectionPool pool, bool fresh, long deadline, CancellationToken cancellationToken)
    {
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(TimeSpan.FromMilliseconds(Math.Max(0, deadline - Environment.TickCount64)));
        try
        {
            return await pool.RentAsync(fresh, limit.Token);
        }
        catch (OperationCanceledException error) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutRejectedException("The attempt's deadline passed while connecting or waiting for a connection.", error);
        }
    }

    private void Sweep()
    {
        if (Interlocked.Exchange(ref _sweepRunning, 1) == 1)
        {
            return;
        }

        try
        {
            foreach (var pools in _pools)
            {
                foreach (var pool in pools)
                {
                    pool.CopyOpen(_sweeping);
                }
            }

            var now = Environment.TickCount64;
            foreach (var connection in _sweeping)
            {
                connection.AbortIfDue(now);
            }
        }
        finally
        {
            _sweeping.Clear();
            Volatile.Write(ref _sweepRunning, 0);
        }
    }

    /// <summary>The request's fixed part for <paramref name="target"/>: request line, Host, Content-Type, the shared key,
    /// and the name of the Idempotency-Key header, whose value, the Content-Length and the body follow per request.</summary>
    internal static byte[] Head(Uri target, string? sharedKey)
    {
        if (sharedKey is not null && sharedKey.Any(c => c is < ' ' or > '~'))
        {
            throw new InvalidOperationException("Security:SharedKey must be printable ASCII to travel in a header.");
        }

        var shared = sharedKey is null ? "" : $"{Security.SecurityOptions.SharedKeyHeader}: {sharedKey}\r\n";
        return Encoding.ASCII.GetBytes(
            $"POST {target.PathAndQuery} HTTP/1.1\r\nHost: {target.Authority}\r\nContent-Type: application/json\r\n{shared}{BackEndForwarder.IdempotencyKeyHeader}: ");
    }
}
