namespace Ingest.Core.Sinks;

/// <summary>
/// How many keys the idempotency window can hold in the memory the GC may use (<see cref="GCMemoryInfo.TotalAvailableMemoryBytes"/>:
/// the machine's memory, or under a container's memory limit the GC's hard limit, 75% of it by default). A window of
/// N keys takes N × <see cref="BytesPerKey"/>, allocated once at its first forward and never grown (<see cref="KeyWindow"/>).
/// The rule: the window takes at most one <see cref="MemoryShare"/>-th of that memory (a quarter), leaving the rest to
/// the service. Sized from memory (<see cref="IdempotencyOptions.Capacity"/> unset) the window holds as many keys as fit,
/// at most <see cref="IdempotencyOptions.MaxSizedCapacity"/>; a capacity set explicitly that does not fit is refused at
/// start-up.
/// </summary>
/// <remarks>The rule and why a quarter: docs/configuration.md (the <c>Idempotency</c> keys); the lab behind it:
/// docs/notebook/lean-services.md#under-container-limits.</remarks>
public sealed class WindowBudget(long availableBytes)
{
    /// <summary>Managed bytes a remembered key costs: its 32-byte slot in the ring and 8 to 16 bytes of index
    /// (<see cref="KeyWindow"/>: the index is a power of two at least twice the ring), no object per key. What a key
    /// really costs is measured by <c>WindowBudgetTests.BytesPerKeyIsNotBelowWhatAKeyCosts</c> (at the default
    /// capacity and where the index is at its largest), which fails should it ever exceed this; rounded up so that a
    /// small change of layout does not make the rule promise memory the window does not have.</summary>
    public const int BytesPerKey = 50;

    /// <summary>The window takes at most one part in this many of the memory: a quarter. Why not a half: in the
    /// smallest container the Native AOT back-end was tried in, a full default window (within a half) got it
    /// OOM-killed under load and a quarter's ran without error, since the limit also counts what the process holds
    /// outside the GC (docs/configuration.md#sinks-and-faults--back-end).</summary>
    public const int MemoryShare = 4;

    /// <summary>The memory the GC may use, in bytes.</summary>
    public long AvailableBytes => availableBytes;

    /// <summary>The most keys a window may hold under the rule; an explicit capacity above it is refused.</summary>
    public int MostKeys => (int)Math.Min(int.MaxValue, availableBytes / MemoryShare / Bytes(1));

    /// <summary>The capacity of a window sized from memory: as many keys as fit, at most
    /// <see cref="IdempotencyOptions.MaxSizedCapacity"/> and at least one.</summary>
    public int SizedKeys => Math.Clamp(MostKeys, 1, IdempotencyOptions.MaxSizedCapacity);

    /// <summary>The budget of this process: what its GC may use now.</summary>
    public static WindowBudget FromRuntime() => new(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes);

    /// <summary>Bytes a window of <paramref name="keys"/> takes.</summary>
    public static long Bytes(long keys) => keys * BytesPerKey;

    /// <summary>The window's capacity: the configured one, or sized from memory.</summary>
    public int CapacityFor(IdempotencyOptions options) => options.Capacity ?? SizedKeys;
}
