namespace Ingest.Core.Sinks;

/// <summary>
/// How many keys the idempotency window can hold in the memory the GC may use (<see cref="GCMemoryInfo.TotalAvailableMemoryBytes"/>:
/// the machine's memory, or under a container's memory limit the GC's hard limit, 75% of it by default). A window of
/// N keys holds N × <see cref="BytesPerKey"/> once grown and, while a growth step copies the old arrays into the new,
/// up to <see cref="GrowthPeak"/> times that. The rule: at its growth peak the window takes at most one
/// <see cref="MemoryShare"/>-th of that memory (a half, so a quarter once grown), leaving the rest to the service. Sized
/// from memory (<see cref="IdempotencyOptions.Capacity"/> unset) the window holds as many keys as fit, at most
/// <see cref="IdempotencyOptions.MaxSizedCapacity"/>; a capacity set explicitly that does not fit is refused at start-up.
/// </summary>
/// <remarks>The rule and why a half: docs/configuration.md (the <c>Idempotency</c> keys); the lab behind it: docs/results.md
/// ("Under container limits").</remarks>
public sealed class WindowBudget(long availableBytes)
{
    /// <summary>Managed bytes a remembered key costs once the window has grown to its capacity: a queue slot and a hash
    /// set slot, the set's size rounded up to a prime of its table (up to about 1.2 times), no object per key. Measured
    /// by <c>WindowBudgetTests.BytesPerKeyIsNotBelowWhatAKeyCosts</c> at capacities between the primes, and rounded up
    /// so that a small change of layout does not make the rule promise memory the window does not have.</summary>
    public const int BytesPerKey = 80;

    /// <summary>A growth step holds the old arrays and the new ones, and the old are never larger: at most twice the
    /// window's size (<c>WindowBudgetTests.AGrowthStepHoldsAtMostTwiceTheWindow</c>).</summary>
    public const int GrowthPeak = 2;

    /// <summary>The window takes at its growth peak at most one part in this many of the memory: a half.</summary>
    public const int MemoryShare = 2;

    /// <summary>The memory the GC may use, in bytes.</summary>
    public long AvailableBytes => availableBytes;

    /// <summary>The most keys a window may hold under the rule; an explicit capacity above it is refused.</summary>
    public int MostKeys => (int)Math.Min(int.MaxValue, availableBytes / MemoryShare / PeakBytes(1));

    /// <summary>The capacity of a window sized from memory: as many keys as fit, at most
    /// <see cref="IdempotencyOptions.MaxSizedCapacity"/> and at least one.</summary>
    public int SizedKeys => Math.Clamp(MostKeys, 1, IdempotencyOptions.MaxSizedCapacity);

    /// <summary>The budget of this process: what its GC may use now.</summary>
    public static WindowBudget FromRuntime() => new(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes);

    /// <summary>Bytes a window of <paramref name="keys"/> holds at its growth peak.</summary>
    public static long PeakBytes(long keys) => keys * BytesPerKey * GrowthPeak;

    /// <summary>The window's capacity: the configured one, or sized from memory.</summary>
    public int CapacityFor(IdempotencyOptions options) => options.Capacity ?? SizedKeys;
}
