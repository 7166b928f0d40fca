using System.Runtime.CompilerServices;
using System.Text;
using Polly;
using Polly.Timeout;

namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// <see cref="ClientStrategy.LoopDirect"/>: each transport loop keeps its own keep-alive connections to every back-end
/// (<see cref="DirectConnectionPool"/>), and a forward on a loop thread writes its request into one of them and reads
/// the answer back on that thread (<see cref="DirectConnection"/>) — no HttpClient, no request or response message
/// objects, no handler chain. What the contract asks of a forward is kept: every attempt carries the forward's
/// Idempotency-Key (and the shared key), and runs inside the same resilience pipeline as HttpClient's strategies
/// (<see cref="BackEndResilience.CreatePipelines{T}"/>: the forward's and each attempt's deadline, retries, one
/// breaker per back-end shared by every loop). A forward from any other thread takes the loops' pools in turn.
/// </summary>
internal sealed class LoopDirectSender : IBackEndSender, IAsyncDisposable
{
    private readonly IForwardLoops _loops;
    private readonly ResiliencePipeline<BackEndReply>[] _pipelines;
    private readonly byte[][] _heads;
    private readonly DirectConnectionPool[][] _pools;
    private uint _next;

    public LoopDirectSender(BackEndResilience resilience, BackEndHandlerFactory handlers, IForwardLoops loops, ForwardingOptions options, string? sharedKey)
    {
        if (loops.Count == 0)
        {
            throw new InvalidOperationException(ForwardingOptionsValidator.LoopNeedsOwnTransport(ClientStrategy.LoopDirect));
        }

        _loops = loops;
        var targets = resilience.Targets;
        _pipelines = resilience.CreatePipelines<BackEndReply>(
            BackEndReply.IsTransient,
            static context => context.Properties.Set(UnsettledForwards.ContextProperty, true));
        _heads = targets.Select(target => Head(target, sharedKey)).ToArray();
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
    }

    /// <summary>Connections open now to back-end <paramref name="target"/>, over every loop.</summary>
    internal int OpenConnections(int target) => _pools.Sum(pools => pools[target].Open);

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<BackEndReply> SendAsync(int target, ReadOnlyMemory<byte> body, string idempotencyKey, CancellationToken cancellationToken)
    {
        var context = ResilienceContextPool.Shared.Get(cancellationToken);
        try
        {
            var reply = await _pipelines[target].ExecuteAsync(
                static (context, state) => state.Sender.AttemptAsync(state.Target, state.Body, state.Key, context.CancellationToken),
                context,
                (Sender: this, Target: target, Body: body, Key: idempotencyKey));
            return reply.IsSuccess || !Unsettled(context) ? reply : throw UnsettledForwards.Unknown(null, reply.Status);
        }
        catch (Exception error) when (error is not (ForwardOutcomeUnknownException or TimeoutRejectedException)
            && !cancellationToken.IsCancellationRequested && (Unsettled(context) || UnsettledForwards.MayHaveLanded(error)))
        {
            throw UnsettledForwards.Unknown(error);
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    private static bool Unsettled(ResilienceContext context) => context.Properties.TryGetValue(UnsettledForwards.ContextProperty, out var unsettled) && unsettled;

    public async ValueTask DisposeAsync()
    {
        foreach (var pool in _pools.SelectMany(pools => pools))
        {
            await pool.DisposeAsync();
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<BackEndReply> AttemptAsync(int target, ReadOnlyMemory<byte> body, string key, CancellationToken cancellationToken)
    {
        var loop = _loops.Current;
        var pool = _pools[loop >= 0 ? loop : (int)(Interlocked.Increment(ref _next) % (uint)_pools.Length)][target];
        StaleConnectionException? stale = null;
        while (true)
        {
            DirectConnection connection;
            try
            {
                connection = await pool.RentAsync(fresh: stale is not null, cancellationToken);
            }
            catch (HttpRequestException refused) when (stale is not null)
            {
                // The kept connection was closed with the request written and no answer: a back-end that died right
                // after reading it may have persisted it. A refusal now does not settle that.
                throw new HttpRequestException(HttpRequestError.ResponseEnded,
                    "The back-end closed a kept connection without answering, then refused a new one: the request may have been read.", refused);
            }

            try
            {
                var reply = await connection.ExchangeAsync(_heads[target], key, body, cancellationToken);
                pool.Return(connection);
                return reply;
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
                // Failed or abandoned mid-exchange (an attempt's deadline): the connection's state is unknown.
                pool.Close(connection);
                throw;
            }
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
