using System.Threading.Channels;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>
/// The "aggregation" of the original system: events of concurrent requests are gathered into one back-end
/// call, closed when it holds <see cref="ForwardingOptions.BatchMaxEvents"/> events or
/// <see cref="ForwardingOptions.BatchWindowMilliseconds"/> after its first one. Each caller's task completes
/// when the batch holding its events was acknowledged (or failed), so a 200 still means "persisted".
/// The queue is bounded: beyond <see cref="ForwardingOptions.BatchQueueCapacity"/> waiting events new
/// requests are answered 503 at once instead of queueing without limit.
/// </summary>
public sealed class BatchingForwarder : IEventForwarder, IAsyncDisposable
{
    private readonly IEventForwarder _inner;
    private readonly Channel<Pending> _queue = Channel.CreateUnbounded<Pending>(new UnboundedChannelOptions { SingleReader = true });
    private readonly SemaphoreSlim _slots;
    private readonly int _maxEvents;
    private readonly TimeSpan _window;
    private readonly int _capacity;
    private readonly int _maxInFlight;
    private readonly Task _loop;
    private readonly IngestMetrics? _metrics;
    private int _queued;

    /// <summary>A wait for the queue that a batch's window outlasted: still pending, and the next wait for the queue
    /// (the loop reads alone, so it is the same wait).</summary>
    private Task<bool>? _leftover;

    public BatchingForwarder(IEventForwarder inner, IOptions<ForwardingOptions> options, IngestMetrics? metrics = null)
    {
        _metrics = metrics;
        var o = options.Value;
        _inner = inner;
        _maxEvents = o.BatchMaxEvents;
        _window = TimeSpan.FromMilliseconds(o.BatchWindowMilliseconds);
        _capacity = o.BatchQueueCapacity;
        _maxInFlight = o.MaxInFlightBatches;
        _slots = new SemaphoreSlim(_maxInFlight, _maxInFlight);
        _loop = Task.Run(RunAsync);
    }

    public ValueTask<IngestProblem?> ForwardAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        if (Interlocked.Add(ref _queued, events.Count) > _capacity)
        {
            Interlocked.Add(ref _queued, -events.Count);
            return ValueTask.FromResult<IngestProblem?>(
                IngestProblem.Overloaded($"More than {_capacity} events are waiting to be forwarded.", retryAfterSeconds: 1));
        }

        // A task source per request: the caller awaits its own outcome. Deliberate allocation, one per request.
        var pending = new Pending(events);
        if (!_queue.Writer.TryWrite(pending))
        {
            Interlocked.Add(ref _queued, -events.Count);
            return ValueTask.FromResult<IngestProblem?>(IngestProblem.Overloaded("The front-end is shutting down.", retryAfterSeconds: 1));
        }

        _metrics?.BatchQueued(events.Count);

        return new ValueTask<IngestProblem?>(pending.Task);
    }

    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        await _loop;
        _slots.Dispose();
    }

    private async Task RunAsync()
    {
        var reader = _queue.Reader;
        while (await WaitToReadAsync(reader))
        {
            var batch = new List<Pending>();
            var events = new List<IngestEvent>();
            await GatherAsync(reader, batch, events);
            Interlocked.Add(ref _queued, -events.Count);
            _metrics?.BatchSent(events.Count);

            await _slots.WaitAsync();
            _ = SendAsync(batch, events);
        }

        // Drain: holding every slot means every batch in flight has finished.
        for (var i = 0; i < _maxInFlight; i++)
        {
            await _slots.WaitAsync();
        }
    }

    private async Task GatherAsync(ChannelReader<Pending> reader, List<Pending> batch, List<IngestEvent> events)
    {
        var started = TimeProvider.System.GetTimestamp();
        while (events.Count < _maxEvents)
        {
            if (reader.TryRead(out var next))
            {
                batch.Add(next);
                events.AddRange(next.Events);
                continue;
            }

            var remaining = _window - TimeProvider.System.GetElapsedTime(started);
            if (remaining <= TimeSpan.Zero)
            {
                return;
            }

            // The window closes by a timer racing the queue, not by cancelling the wait: a cancelled wait ends in an
            // OperationCanceledException, and windows close all the time under a steady load.
            var queued = _leftover ?? reader.WaitToReadAsync().AsTask();
            _leftover = null;
            if (!queued.IsCompleted && await Task.WhenAny(queued, Task.Delay(remaining)) != queued)
            {
                _leftover = queued;
                return;
            }

            if (!await queued)
            {
                return;
            }
        }
    }

    /// <summary>The queue's next wait: the one a window left pending, else a new one.</summary>
    private ValueTask<bool> WaitToReadAsync(ChannelReader<Pending> reader)
    {
        if (_leftover is { } leftover)
        {
            _leftover = null;
            return new ValueTask<bool>(leftover);
        }

        return reader.WaitToReadAsync();
    }

    private async Task SendAsync(List<Pending> batch, List<IngestEvent> events)
    {
        IngestProblem? outcome;
        try
        {
            // No caller's abort cancels a batch: other callers' events ride in it too.
            outcome = await _inner.ForwardAsync(events, CancellationToken.None);
        }
#pragma warning disable CA1031 // Whatever failed, every waiting caller must get an answer.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            outcome = IngestProblem.Create(ProblemKind.BackEndFailed, $"Forwarding the batch failed: {ex.GetType().Name}.");
        }
        finally
        {
            _slots.Release();
        }

        foreach (var pending in batch)
        {
            pending.TrySetResult(outcome);
        }
    }

    private sealed class Pending(List<IngestEvent> events) : TaskCompletionSource<IngestProblem?>(TaskCreationOptions.RunContinuationsAsynchronously)
    {
        public List<IngestEvent> Events { get; } = events;
    }
}
