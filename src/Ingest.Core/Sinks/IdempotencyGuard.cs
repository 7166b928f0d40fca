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
/// a persisted key is a <see cref="WindowKey"/> (16 bytes for the 32-character key our front-ends send) in a
/// <see cref="KeyWindow"/> — <see cref="WindowBudget.BytesPerKey"/> at most and no object per key. Only keys still
/// being persisted sit in a dictionary of their own, and only a retry racing its first attempt allocates something to
/// wait on.
/// </remarks>
public sealed class IdempotencyGuard(IOptions<IdempotencyOptions> options, WindowBudget budget, TimeProvider time)
{
    private readonly Lock _gate = new();
    private readonly KeyWindow _persisted = new();

    /// <summary>Keys being persisted; the value stays null unless a retry arrives meanwhile and waits for the outcome.</summary>
    private readonly Dictionary<WindowKey, TaskCompletionSource?> _inFlight = [];

    private readonly int _capacity = budget.CapacityFor(options.Value);
    private readonly TimeSpan _window = TimeSpan.FromSeconds(options.Value.WindowSeconds);
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
                return _persisted.Room;
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
            _persisted.Add(id, now);
            Evict(now);
        }

        waiter?.TrySetResult();
    }

    /// <summary>Makes room for the whole window at the first persist: its ring is allocated once at the capacity (one
    /// more: a key is added before the oldest is evicted) and never copied. The GC hands a large array fresh pages it
    /// does not touch, so the ring becomes resident only as keys fill it, while growing by doubling would leave every
    /// smaller step behind as garbage in the large object heap until a gen2 collection. Called under the gate.</summary>
    private void Reserve()
    {
        if (_persisted.Room == 0)
        {
            _persisted.Grow(_capacity + 1);
        }
    }

    /// <summary>Forgets the oldest persisted keys beyond the capacity or the window. Called under the gate.</summary>
    private void Evict(long now)
    {
        while (_persisted.TryPeekOldest(out var at) && (_persisted.Count > _capacity || time.GetElapsedTime(at, now) > _window))
        {
            _persisted.RemoveOldest();
        }
    }
}
