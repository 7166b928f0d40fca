using CsCheck;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Tests;

/// <summary>
/// The back-end's at-most-once promise for a retried forward, on the compact window: a key is persisted once, a retry
/// racing its first attempt shares that attempt's outcome, a failed attempt is forgotten, and keys leave the window
/// oldest first by capacity (configured, or what the memory fits) and by age. Keys are equal exactly when their texts are.
/// </summary>
public sealed class IdempotencyGuardTests
{
    private static readonly string KeyA = Guid.NewGuid().ToString("N");

    [Fact]
    public async Task APersistedKeyIsNotPersistedAgain()
    {
        var guard = Guard();
        var persisted = 0;
        for (var attempt = 0; attempt < 3; attempt++)
        {
            await guard.RunOnceAsync(KeyA, _ => { persisted++; return ValueTask.CompletedTask; }, CancellationToken.None);
        }

        Assert.Equal(1, persisted);
        Assert.Equal(2, guard.Duplicates);
        Assert.Equal(1, guard.Remembered);
    }

    [Fact]
    public async Task ARetryRacingTheFirstAttemptWaitsForItsOutcome()
    {
        var guard = Guard();
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var persisted = 0;
        var first = guard.RunOnceAsync(KeyA, async _ => { await release.Task; persisted++; }, CancellationToken.None).AsTask();
        var retry = guard.RunOnceAsync(KeyA, _ => { persisted++; return ValueTask.CompletedTask; }, CancellationToken.None).AsTask();

        Assert.False(retry.IsCompleted, "the retry waits while the first attempt persists");
        release.SetResult();
        await Task.WhenAll(first, retry);

        Assert.Equal(1, persisted);
        Assert.Equal(1, guard.Duplicates);
    }

    [Fact]
    public async Task ARetryRacingAFailedAttemptFailsAndALaterRetryPersists()
    {
        var guard = Guard();
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var first = guard.RunOnceAsync(KeyA, async _ => { await release.Task; throw new IOException("store down"); }, CancellationToken.None).AsTask();
        var retry = guard.RunOnceAsync(KeyA, _ => ValueTask.CompletedTask, CancellationToken.None).AsTask();

        release.SetResult();
        await Assert.ThrowsAsync<IOException>(() => first);
        await Assert.ThrowsAsync<IOException>(() => retry);

        var persisted = 0;
        await guard.RunOnceAsync(KeyA, _ => { persisted++; return ValueTask.CompletedTask; }, CancellationToken.None);
        Assert.Equal(1, persisted);
        Assert.Equal(0, guard.Duplicates);
    }

    [Fact]
    public async Task KeysBeyondTheCapacityAreForgottenOldestFirst()
    {
        const int capacity = 3;
        var guard = Guard(capacity: capacity);
        var keys = Enumerable.Range(0, capacity + 1).Select(_ => Guid.NewGuid().ToString("N")).ToArray();
        foreach (var key in keys)
        {
            await guard.RunOnceAsync(key, _ => ValueTask.CompletedTask, CancellationToken.None);
        }

        Assert.Equal(capacity, guard.Remembered);
        Assert.Equal(1, await Persists(guard, keys[0]));
        Assert.Equal(0, await Persists(guard, keys[^1]));
    }

    [Fact]
    public async Task KeysOlderThanTheWindowAreForgotten()
    {
        var clock = new ManualClock();
        var guard = Guard(windowSeconds: 10, time: clock);
        await guard.RunOnceAsync(KeyA, _ => ValueTask.CompletedTask, CancellationToken.None);

        clock.Advance(TimeSpan.FromSeconds(10));
        Assert.Equal(0, await Persists(guard, KeyA));
        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(1, await Persists(guard, KeyA));
    }

    [Fact]
    public void KeysAreEqualExactlyWhenTheirTextsAre()
    {
        var hex = Gen.Char["0123456789abcdefABCDEF-"].Array[30, 34].Select(c => new string(c));
        Gen.Select(hex, hex).Sample((a, b) =>
            WindowKey.From(a).Equals(WindowKey.From(b)) == string.Equals(a, b, StringComparison.Ordinal)
            && (!string.Equals(a, b, StringComparison.Ordinal) || WindowKey.From(a).GetHashCode() == WindowKey.From(b).GetHashCode()));

        var lower = Guid.NewGuid().ToString("N");
        Assert.True(WindowKey.From(lower).IsPacked);
        Assert.False(WindowKey.From(lower.ToUpperInvariant()).IsPacked);
        Assert.NotEqual(WindowKey.From(lower), WindowKey.From(lower.ToUpperInvariant()));
        Assert.Equal(WindowKey.From(lower), WindowKey.From(new string(lower.AsSpan())));
    }

    private static async Task<int> Persists(IdempotencyGuard guard, string key)
    {
        var persisted = 0;
        await guard.RunOnceAsync(key, _ => { persisted++; return ValueTask.CompletedTask; }, CancellationToken.None);
        return persisted;
    }

    /// <summary>A service at its memory limit can fail any allocation; once the store has the events, recording the key
    /// must not be one, or a persisted forward would fail (and be retried under a new key by the caller). Keys are
    /// persisted one after another: the guard's work after each persist allocates nothing; and with 1,500 persisting at
    /// once, room for all of them was made beforehand.</summary>
    [Fact]
    public Task RecordingAPersistedKeyAllocatesNothing() => Task.Run(async () =>
    {
        var guard = Guard(capacity: 10_000);
        for (var i = 0; i < 3_000; i++)
        {
            long afterPersist = 0;
            var run = guard.RunOnceAsync(Guid.NewGuid().ToString("N"), _ =>
            {
                afterPersist = GC.GetAllocatedBytesForCurrentThread();
                return ValueTask.CompletedTask;
            }, CancellationToken.None);
            var tail = GC.GetAllocatedBytesForCurrentThread() - afterPersist;
            Assert.True(run.IsCompletedSuccessfully);
            Assert.True(tail == 0, $"key {i}: {tail} bytes allocated after the persist");
        }

        // 1,500 persisting at once: room for all of them was made before any persists.
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var runs = Enumerable.Range(0, 1_500).Select(_ => guard.RunOnceAsync(Guid.NewGuid().ToString("N"), async _ => await release.Task, CancellationToken.None).AsTask()).ToArray();
        Assert.True(guard.Reserved >= 3_000 + 1_500, $"room for {guard.Reserved} keys with 3,000 remembered and 1,500 persisting");
        release.SetResult();
        await Task.WhenAll(runs);
        Assert.Equal(4_500, guard.Remembered);
    });

    [Fact]
    public async Task WithoutAConfiguredCapacityTheWindowHoldsWhatItsMemoryFits()
    {
        const int fits = 5;
        var budget = new WindowBudget(WindowBudget.Bytes(fits) * WindowBudget.MemoryShare);
        var guard = new IdempotencyGuard(Options.Create(new IdempotencyOptions()), budget, TimeProvider.System);
        var keys = Enumerable.Range(0, fits + 1).Select(_ => Guid.NewGuid().ToString("N")).ToArray();
        foreach (var key in keys)
        {
            await guard.RunOnceAsync(key, _ => ValueTask.CompletedTask, CancellationToken.None);
        }

        Assert.Equal(fits, guard.Capacity);
        Assert.Equal(fits, guard.Remembered);
        Assert.Equal(1, await Persists(guard, keys[0]));
    }

    /// <summary>A guard with an explicit capacity; its budget (the machine's memory) plays no part.</summary>
    private static IdempotencyGuard Guard(int capacity = 1000, int windowSeconds = 300, TimeProvider? time = null) =>
        new(Options.Create(new IdempotencyOptions { Capacity = capacity, WindowSeconds = windowSeconds }), WindowBudget.FromRuntime(), time ?? TimeProvider.System);

    private sealed class ManualClock : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => _ticks;

        public void Advance(TimeSpan by) => _ticks += by.Ticks;
    }
}
