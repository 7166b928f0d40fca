using System.Runtime.InteropServices;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Sinks;

/// <summary>
/// Persists a forward carrying an Idempotency-Key once: a retry of a forward the back-end already persisted (its
/// answer lost to a timeout or a reset) is acknowledged again without writing the events twice, and a retry
/// arriving while the first attempt is still persisting waits for that attempt's outcome. Persisted keys are kept for
/// <see cref="IdempotencyOptions.WindowSeconds"/> and at most <see cref="Capacity"/> of them: the configured
/// <see cref="IdempotencyOptions.Capacity"/>, or as many as the memory of <paramref name="budget"/> fits.
/// </summary>
/// <remarks>
/// The window is the back-end's largest holding (a key per forward, up to 200,000 by default), so it is stored compactly:
/// a persisted key is a <see cref="WindowKey"/> (16 bytes for the 32-character key our front-ends send) in one hash set
/// and one queue of (key, time) — <see cref="WindowBudget.BytesPerKey"/> at most and no object per key. Only keys still
/// being persisted sit in a dictionary of their own, and only a retry racing its first attempt allocates something to
/// wait on.
/// </remarks>
public sealed class IdempotencyGuard(IOptions<IdempotencyOptions> options, WindowBudget budget, TimeProvider time)
{
    /// <summary>Keys room is made for at first; the window grows from here as forwards arrive.</summary>
    private const int InitialReserve = 1024;

    private readonly Lock _gate = new();
    private readonly HashSet<WindowKey> _persisted = [];
    private Queue<(WindowKey Key, long At)> _order = new();

    /// <summary>Keys being persisted; the value stays null unless a retry arrives meanwhile and waits for the outcome.</summary>
    private readonly Dictionary<WindowKey, TaskCompletionSource?> _inFlight = [];

    private readonly int _capacity = budget.CapacityFor(options.Value);
    private readonly TimeSpan _window = TimeSpan.FromSeconds(options.Value.WindowSeconds);
    private int _reserved;
    private long _duplicates;

    /// <summary>Persisted keys remembered at most.</summary>
    public int Capacity => _capacity;

    /// <summary>Forwards acknowledged again without being persisted again.</summary>
    public long Duplicates => Interlocked.Read(ref _duplicates);

    /// <summary>Keys the window has room for without allocating.</summary>
    internal int Reserved
    {
        get
        {
            lock (_gate)
            {
                return _reserved;
            }
        }
    }

    /// <summary>Persisted keys remembered now.</summary>
    public int Remembered
    {
        get
        {
            lock (_gate)
            {
                return _persisted.Count;
            }
        }
    }

    /// <summary>Runs <paramref name="persist"/> unless this key was persisted (or is being persisted) already.</summary>
    public async ValueTask RunOnceAsync(string key, Func<CancellationToken, ValueTask> persist, CancellationToken cancellationToken)
    {
        var id = WindowKey.From(key);
        Task? earlier = null;
        lock (_gate)
        {
            Evict(time.GetTimestamp());
            if (_persisted.Contains(id))
            {
                Interlocked.Increment(ref _duplicates);
                return;
            }

            ref var waiting = ref CollectionsMarshal.GetValueRefOrAddDefault(_inFlight, id, out var running);
            if (running)
            {
                // Another attempt of the same forward got here first: its outcome is ours.
                waiting ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                earlier = waiting.Task;
            }
            else
            {
                // Room for this key before it is persisted: once the store has the events, recording the key must not
                // allocate — an OutOfMemoryException there (a service at its memory limit) would fail a forward whose
                // events are already persisted.
                try
                {
                    Reserve();
                }
                catch
                {
                    _inFlight.Remove(id);
                    throw;
                }
            }
        }

        if (earlier is not null)
        {
            await earlier.WaitAsync(cancellationToken);
            Interlocked.Increment(ref _duplicates);
            return;
        }

        TaskCompletionSource? waiter;
        try
        {
            await persist(cancellationToken);
        }
        catch (Exception ex)
        {
            // Not persisted: forget the key so a retry can try again, and fail whoever waits on this attempt.
            lock (_gate)
            {
                _inFlight.Remove(id, out waiter);
            }

            waiter?.TrySetException(ex);
            throw;
        }

        lock (_gate)
        {
            _inFlight.Remove(id, out waiter);
            var now = time.GetTimestamp();
            _persisted.Add(id);
            _order.Enqueue((id, now));
            Evict(now);
        }

        waiter?.TrySetResult();
    }

    /// <summary>Makes room in the set and the queue for every key being persisted now (the caller's included), growing by
    /// doubling as usual but never past the capacity (a collection left to itself doubles past it: up to twice the
    /// memory the window needs). Called under the gate, before a persist.</summary>
    private void Reserve()
    {
        var needed = Math.Min(_persisted.Count + _inFlight.Count, _capacity + 1L);
        if (needed <= _reserved)
        {
            return;
        }

        // One more than the capacity: a key is added before the oldest is evicted.
        var wanted = (int)Math.Min(Math.Max(Math.Max(2L * _reserved, InitialReserve), needed), _capacity + 1L);
        _reserved = Math.Min(_persisted.EnsureCapacity(wanted), GrowOrder(wanted));
    }

    /// <summary>Grows the queue to exactly <paramref name="wanted"/> slots: <see cref="Queue{T}.EnsureCapacity"/> grows to
    /// at least twice the old size, which on the last step is past the capacity (262,144 slots for a window of 200,000).
    /// Called under the gate.</summary>
    private int GrowOrder(int wanted)
    {
        var slots = _order.EnsureCapacity(0);
        if (slots >= wanted)
        {
            return slots;
        }

        var grown = new Queue<(WindowKey Key, long At)>(wanted);
        foreach (var entry in _order)
        {
            grown.Enqueue(entry);
        }

        _order = grown;
        return wanted;
    }

    /// <summary>Forgets the oldest persisted keys beyond the capacity or the window. Called under the gate.</summary>
    private void Evict(long now)
    {
        while (_order.TryPeek(out var oldest) && (_order.Count > _capacity || time.GetElapsedTime(oldest.At, now) > _window))
        {
            _order.Dequeue();
            _persisted.Remove(oldest.Key);
        }
    }
}
