using System.Collections.Concurrent;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Sinks;

/// <summary>
/// Persists a forward carrying an Idempotency-Key once: a retry of a forward the back-end already persisted (its
/// answer lost to a timeout or a reset) is acknowledged again without writing the events twice, and a retry
/// arriving while the first attempt is still persisting waits for that attempt's outcome. Keys are kept for
/// <see cref="IdempotencyOptions.WindowSeconds"/> and at most <see cref="IdempotencyOptions.Capacity"/> of them.
/// </summary>
public sealed class IdempotencyGuard(IOptions<IdempotencyOptions> options, TimeProvider time)
{
    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<(string Key, long At)> _order = new();
    private readonly IdempotencyOptions _options = options.Value;
    private long _duplicates;

    /// <summary>Forwards acknowledged again without being persisted again.</summary>
    public long Duplicates => Interlocked.Read(ref _duplicates);

    /// <summary>Runs <paramref name="persist"/> unless this key was persisted (or is being persisted) already.</summary>
    public async ValueTask RunOnceAsync(string key, Func<CancellationToken, ValueTask> persist, CancellationToken cancellationToken)
    {
        Evict();
        var mine = new Entry();
        var entry = _entries.GetOrAdd(key, mine);
        if (!ReferenceEquals(entry, mine))
        {
            // Another attempt of the same forward got here first: its outcome is ours.
            await entry.Done.Task.WaitAsync(cancellationToken);
            Interlocked.Increment(ref _duplicates);
            return;
        }

        _order.Enqueue((key, time.GetTimestamp()));
        try
        {
            await persist(cancellationToken);
            mine.Done.TrySetResult();
        }
        catch (Exception ex)
        {
            // Not persisted: forget the key so a retry can try again, and fail whoever waits on this attempt.
            _entries.TryRemove(KeyValuePair.Create(key, mine));
            mine.Done.TrySetException(ex);
            throw;
        }
    }

    private void Evict()
    {
        var now = time.GetTimestamp();
        while (_order.TryPeek(out var oldest)
            && (_order.Count > _options.Capacity || time.GetElapsedTime(oldest.At, now).TotalSeconds > _options.WindowSeconds)
            && _order.TryDequeue(out oldest))
        {
            if (_entries.TryGetValue(oldest.Key, out var entry) && entry.Done.Task.IsCompleted)
            {
                _entries.TryRemove(KeyValuePair.Create(oldest.Key, entry));
            }
        }
    }

    private sealed class Entry
    {
        public TaskCompletionSource Done { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
    }
}
