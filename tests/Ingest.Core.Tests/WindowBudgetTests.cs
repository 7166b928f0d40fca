using Ingest.Core.Sinks;
using Microsoft.Extensions.Options;
using Xunit.Abstractions;

namespace Ingest.Core.Tests;

/// <summary>
/// The idempotency window's sizing rule: what a key costs is measured (never below the rule's figure), a window sized
/// from memory takes at most its share of it, and an explicit capacity that does not fit is refused
/// with a message naming the key and what fits.
/// </summary>
public sealed class WindowBudgetTests(ITestOutputHelper output)
{
    private const long MiB = 1024 * 1024;

    /// <summary>The size from which the GC places an array in the large object heap.</summary>
    private const long LargeObject = 85_000;

    /// <summary>Memory the GC may use: a small explicit hard limit, 75% of a 37 MB and of a 47 MB container, 75% of a
    /// 256 MB container, and this machine's order of magnitude.</summary>
    public static TheoryData<long> AvailableMemory => [1024, 28 * MiB, 37 * MiB * 3 / 4, 47 * MiB * 3 / 4, 192 * MiB, 24L * 1024 * MiB];

    /// <summary>A window is filled to its capacity one key at a time, counting the bytes allocated on this thread beyond
    /// a key's own: the window's arrays. Its index is a power of two at least twice its ring (a key
    /// more than the capacity), so what a key costs varies with the capacity: the default's, one whose ring lands just
    /// past a power of two (132,000: the index at its largest, four times the ring) and one in between.</summary>
    [Theory]
    [InlineData(IdempotencyOptions.MaxSizedCapacity)]
    [InlineData(132_000)]
    [InlineData(75_431)]
    public void BytesPerKeyIsNotBelowWhatAKeyCosts(int capacity)
    {
        var held = FillWindow(capacity).Max();
        output.WriteLine($"{capacity} keys: the window holds {held} B, {(double)held / capacity:0.0} B a key; the rule counts {WindowBudget.BytesPerKey} B");

        Assert.True(held <= (long)WindowBudget.BytesPerKey * capacity, $"{(double)held / capacity:0.0} B a key measured, {WindowBudget.BytesPerKey} B counted");
    }

    /// <summary>The window's arrays are allocated once, at the first key, at the capacity: no growth step copies them and
    /// leaves the old ones behind.</summary>
    [Fact]
    public void TheWindowIsAllocatedOnceAtItsFirstKey()
    {
        const int capacity = IdempotencyOptions.MaxSizedCapacity;
        var steps = FillWindow(capacity);

        output.WriteLine($"{capacity} keys: allocations beyond a key's own of {string.Join(", ", steps)} B");

        // One key's call allocated the window; any other was the runtime's own small work on this thread (a few KB at most).
        var window = Assert.Single(steps, step => step >= LargeObject);
        Assert.True(window <= WindowBudget.Bytes(capacity), $"{window} B allocated, the rule counts {WindowBudget.Bytes(capacity)} B");
    }

    [Theory]
    [MemberData(nameof(AvailableMemory))]
    public void AWindowSizedFromMemoryTakesAtMostItsShare(long available)
    {
        var budget = new WindowBudget(available);
        var keys = budget.SizedKeys;

        Assert.InRange(keys, 1, IdempotencyOptions.MaxSizedCapacity);
        Assert.True(keys == 1 || WindowBudget.Bytes(keys) <= available / WindowBudget.MemoryShare, $"{keys} keys in {available} B");
        Assert.True(keys == IdempotencyOptions.MaxSizedCapacity || WindowBudget.Bytes(keys + 1) > available / WindowBudget.MemoryShare, $"{keys} keys in {available} B: one more fits");
    }

    [Fact]
    public void AConfiguredCapacityIsKeptAndAnUnsetOneIsSizedFromMemory()
    {
        var budget = new WindowBudget(16 * MiB);

        Assert.Equal(7, budget.CapacityFor(new IdempotencyOptions { Capacity = 7 }));
        Assert.Equal(budget.SizedKeys, budget.CapacityFor(new IdempotencyOptions()));
        Assert.True(budget.SizedKeys < IdempotencyOptions.MaxSizedCapacity, "16 MB holds fewer than the default's 200,000 keys");
        Assert.Equal(IdempotencyOptions.MaxSizedCapacity, new WindowBudget(24L * 1024 * MiB).CapacityFor(new IdempotencyOptions()));
    }

    [Fact]
    public void AConfiguredCapacityPastWhatFitsIsRefusedNamingTheKeyAndWhatFits()
    {
        var budget = new WindowBudget(28 * MiB);
        var validator = new SinkOptionsValidator(budget);

        var fits = validator.Validate(null, new IdempotencyOptions { Capacity = budget.MostKeys });
        var result = validator.Validate(null, new IdempotencyOptions { Capacity = budget.MostKeys + 1 });

        Assert.True(fits.Succeeded, fits.FailureMessage);
        Assert.True(result.Failed);
        Assert.Contains($"Idempotency:Capacity = {budget.MostKeys + 1} does not fit the 28 MB the GC may use", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains($"At most {budget.MostKeys} keys fit", result.FailureMessage, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(null)]
    [InlineData(1)]
    public void AnUnsetCapacityOrASmallOneIsAccepted(int? capacity)
    {
        var result = new SinkOptionsValidator(new WindowBudget(28 * MiB)).Validate(null, new IdempotencyOptions { Capacity = capacity });

        Assert.True(result.Succeeded, result.FailureMessage);
    }

    [Fact]
    public void ACapacityBelowOneIsRefusedNamingTheKey()
    {
        var result = new SinkOptionsValidator(new WindowBudget(28 * MiB)).Validate(null, new IdempotencyOptions { Capacity = 0 });

        Assert.Contains("Idempotency:Capacity = 0 is outside 1..100000000", result.FailureMessage, StringComparison.Ordinal);
    }

    /// <summary>The bytes allocated, beyond a key's own, while a window of <paramref name="capacity"/> keys filled up: what a
    /// key allocated beyond the least any key did (a Debug build's async state machine is an object of its own).</summary>
    private static List<long> FillWindow(int capacity)
    {
        var guard = new IdempotencyGuard(Options.Create(new IdempotencyOptions { Capacity = capacity }), WindowBudget.FromRuntime(), TimeProvider.System);
        var allocations = new long[capacity];
        for (var i = 0; i < capacity; i++)
        {
            var key = Guid.NewGuid().ToString("N");
            var before = GC.GetAllocatedBytesForCurrentThread();
            var run = guard.RunOnceAsync(key, static _ => ValueTask.CompletedTask, CancellationToken.None);
            allocations[i] = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.True(run.IsCompletedSuccessfully);
        }

        Assert.Equal(capacity, guard.Remembered);
        var perCall = allocations.Min();
        return [.. allocations.Where(a => a > perCall).Select(a => a - perCall)];
    }
}
