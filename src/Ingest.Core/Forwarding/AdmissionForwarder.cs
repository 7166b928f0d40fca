using System.Runtime.CompilerServices;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Threading;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>
/// Backpressure: at most <see cref="ForwardingOptions.MaxInFlight"/> forwards in flight. Beyond that a request
/// is answered 503 with Retry-After at once — it costs an increment and a decrement — instead of waiting in a
/// queue that grows with the load until memory runs out (the 2016 front-end grew to 2 GB and then failed).
/// </summary>
public sealed class AdmissionForwarder(IEventForwarder inner, IOptions<ForwardingOptions> options) : IEventForwarder, IAsyncDisposable
{
    private readonly int _limit = options.Value.MaxInFlight;
    private int _inFlight;

    /// <summary>Forwards in flight now.</summary>
    public int InFlight => Volatile.Read(ref _inFlight);

    // Pooled: a forward nearly always suspends here, once per request in flight.
    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    public async ValueTask<IngestProblem?> ForwardAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        if (Interlocked.Increment(ref _inFlight) > _limit)
        {
            Interlocked.Decrement(ref _inFlight);
            return IngestProblem.Overloaded($"{_limit} forwards are already in flight.", retryAfterSeconds: 1);
        }

        try
        {
            return await inner.ForwardAsync(events, cancellationToken);
        }
        finally
        {
            Interlocked.Decrement(ref _inFlight);
        }
    }

    /// <summary>Disposes the forwarder it wraps (the batching one drains its queue), as the container disposes only this one.</summary>
    public ValueTask DisposeAsync() => inner is IAsyncDisposable disposable ? disposable.DisposeAsync() : ValueTask.CompletedTask;
}
