using System.Threading.Channels;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Logging;

namespace Ingest.Storage.Internal;

/// <summary>
/// The write path every store shares: requests queue their events, a fixed number of writers each take what is
/// queued (up to <see cref="StoreBatchOptions.BatchMaxEvents"/>, waiting <see cref="StoreBatchOptions.LingerMilliseconds"/>
/// for more) and write it to the store in one go; every request of the batch completes once the store
/// acknowledged it. Any failure fails the whole batch with <see cref="StoreUnavailableException"/> — the back-end
/// answers 503 and nothing of it counts as persisted.
/// </summary>
internal abstract partial class BatchingSink : IEventSink, IAsyncDisposable
{
    private readonly Channel<PendingWrite> _queue;
    private readonly Task[] _writers;
    private readonly CancellationTokenSource _stopping = new();
    private readonly StoreBatchOptions _options;
    private readonly IngestMetrics? _metrics;
    private readonly ILogger _logger;
    private readonly string _name;
    private int _failing;

    protected BatchingSink(SinkKind kind, StoreBatchOptions options, int writers, IngestMetrics? metrics, ILogger logger)
    {
        Kind = kind;
        _name = SinkRouter.Name(kind);
        _options = options;
        _metrics = metrics;
        _logger = logger;
        _queue = Channel.CreateBounded<PendingWrite>(new BoundedChannelOptions(options.QueueCapacity)
        {
            FullMode = BoundedChannelFullMode.Wait,
            SingleReader = writers == 1,
        });
        _writers = new Task[writers];
        for (var i = 0; i < writers; i++)
        {
            var writer = i;
            _writers[i] = Task.Run(() => RunAsync(writer));
        }
    }

    public SinkKind Kind { get; }

    /// <summary>Where the store is, for messages ("PostgreSQL at 127.0.0.1:5432").</summary>
    protected abstract string Store { get; }

    public async ValueTask WriteAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        // One task source per request: the caller awaits its own batch. Deliberate allocation, one per request.
        var pending = new PendingWrite(events);
        _metrics?.StoreQueued(_name, events.Count);
        try
        {
            await _queue.Writer.WriteAsync(pending, cancellationToken);
        }
        catch (ChannelClosedException ex)
        {
            _metrics?.StoreQueued(_name, -events.Count);
            throw new StoreUnavailableException(Kind, $"The {_name} sink is shutting down.", _options.RetryAfterSeconds, ex);
        }
        catch (OperationCanceledException)
        {
            _metrics?.StoreQueued(_name, -events.Count);
            throw;
        }

        // Queued, the events are written whether or not the caller still waits, so the caller hears the write's own
        // outcome (bounded by the write timeout) rather than its cancellation: a back-end whose caller gave up here
        // used to fail the attempt, its idempotency guard forgot the key, and the retry wrote the events a second time
        // (docs/reliability.md). Cancellation counts only until the store has taken the events, as above.
        await pending.Task;
    }

    public async ValueTask DisposeAsync()
    {
        // Drain: the queued requests are written (or failed) before the store connections close.
        _queue.Writer.TryComplete();
        _stopping.CancelAfter(TimeSpan.FromMilliseconds(_options.WriteTimeoutMilliseconds));
        await Task.WhenAll(_writers);
        await DisposeStoreAsync();
        _stopping.Dispose();
    }

    /// <summary>Writes one batch to the store and returns once the store acknowledged it (committed, replied,
    /// written); throws when it did not. <paramref name="writer"/> is the writer's index, for per-writer connections.</summary>
    protected abstract Task WriteBatchAsync(List<IngestEvent> events, int writer, CancellationToken cancellationToken);

    protected abstract ValueTask DisposeStoreAsync();

    private async Task RunAsync(int writer)
    {
        var reader = _queue.Reader;
        var batch = new List<PendingWrite>();
        var events = new List<IngestEvent>(_options.BatchMaxEvents);
        while (await reader.WaitToReadAsync())
        {
            batch.Clear();
            events.Clear();
            await GatherAsync(reader, batch, events);
            if (batch.Count == 0)
            {
                continue;
            }

            _metrics?.StoreQueued(_name, -events.Count);
            var started = TimeProvider.System.GetTimestamp();
            Exception? failure = null;
            using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(_stopping.Token))
            {
                timeout.CancelAfter(_options.WriteTimeoutMilliseconds);
                try
                {
                    await WriteBatchAsync(events, writer, timeout.Token);
                }
#pragma warning disable CA1031 // Whatever failed, every waiting request must get its answer: a 503.
                catch (Exception ex)
#pragma warning restore CA1031
                {
                    failure = ex;
                }
            }

            _metrics?.StoreBatch(_name, events.Count, failure is null, TimeProvider.System.GetElapsedTime(started).TotalSeconds);
            Complete(batch, failure);
        }
    }

    private async Task GatherAsync(ChannelReader<PendingWrite> reader, List<PendingWrite> batch, List<IngestEvent> events)
    {
        var started = TimeProvider.System.GetTimestamp();
        // A request is never split: a batch may exceed the limit by the last request's events.
        while (events.Count < _options.BatchMaxEvents)
        {
            if (reader.TryRead(out var next))
            {
                batch.Add(next);
                events.AddRange(next.Events);
                continue;
            }

            var remaining = TimeSpan.FromMilliseconds(_options.LingerMilliseconds) - TimeProvider.System.GetElapsedTime(started);
            if (batch.Count > 0 && remaining <= TimeSpan.Zero)
            {
                return;
            }

            using var wait = new CancellationTokenSource(remaining > TimeSpan.Zero ? remaining : Timeout.InfiniteTimeSpan);
            try
            {
                if (!await reader.WaitToReadAsync(wait.Token))
                {
                    return;
                }
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private void Complete(List<PendingWrite> batch, Exception? failure)
    {
        if (failure is null)
        {
            if (Interlocked.Exchange(ref _failing, 0) == 1)
            {
                LogRecovered(_logger, Store);
            }

            foreach (var pending in batch)
            {
                pending.TrySetResult();
            }

            return;
        }

        if (Interlocked.Exchange(ref _failing, 1) == 0)
        {
            LogFailing(_logger, Store, failure.GetType().Name, failure.Message);
        }

        var unavailable = new StoreUnavailableException(Kind, $"{Store} did not take the events: {failure.Message}", _options.RetryAfterSeconds, failure);
        foreach (var pending in batch)
        {
            pending.TrySetException(unavailable);
        }
    }

    [LoggerMessage(EventId = 300, Level = LogLevel.Warning, Message = "{Store} is unavailable, answering 503 until it is back: {Error} {Message}")]
    private static partial void LogFailing(ILogger logger, string store, string error, string message);

    [LoggerMessage(EventId = 301, Level = LogLevel.Information, Message = "{Store} is available again.")]
    private static partial void LogRecovered(ILogger logger, string store);
}
