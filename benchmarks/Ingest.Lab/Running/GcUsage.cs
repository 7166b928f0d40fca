namespace Ingest.Lab.Running;

/// <summary>
/// What a .NET service's garbage collector did during one load phase, from its runtime's counters read just before
/// and just after the phase (<see cref="RuntimeCounters"/>). Unlike throughput and CPU a request, which move together
/// by 10–20% between neighbouring runs on a shared machine, these are counts of the service's own work: the bytes it
/// allocates a request and the share of the phase it spent stopped for collections are what a GC setting trades
/// against memory, and they do not drift with the machine. Beside them, the exceptions it threw.
/// </summary>
internal sealed record GcUsage
{
    /// <summary>Bytes the service allocated per response the load generator received.</summary>
    public required double AllocatedBytesPerRequest { get; init; }

    /// <summary>Time the service's threads were paused for collections, as a share of the phase's duration.</summary>
    public required double PauseShare { get; init; }

    /// <summary>Collections of each generation during the phase (a gen1 collection is not also counted as gen0).</summary>
    public required double Gen0Collections { get; init; }

    public required double Gen1Collections { get; init; }

    public required double Gen2Collections { get; init; }

    /// <summary>Exceptions the service threw a second during the phase, first-chance, caught or not: none in a steady
    /// state, where every one is a cost (a stack walk) and usually a sign that a normal outcome is reported by throwing.
    /// Null when a reading lacks the counter (results written before it was read).</summary>
    public double? ExceptionsPerSecond { get; init; }

    /// <summary>The figures between two readings of the service's counters around a phase of
    /// <paramref name="seconds"/> that served <paramref name="requests"/>; null when either reading lacks them (the
    /// service has no /metrics, or the scrape failed) or nothing was served.</summary>
    public static GcUsage? Between(RuntimeCounters? before, RuntimeCounters? after, double seconds, long requests)
    {
        if (before is not { GcPauseSeconds: { } pause0, Collections: { } all0, Gen1Collections: { } gen1Before, Gen2Collections: { } gen2Before, AllocatedBytes: { } allocated0 }
            || after is not { GcPauseSeconds: { } pause1, Collections: { } all1, Gen1Collections: { } gen1After, Gen2Collections: { } gen2After, AllocatedBytes: { } allocated1 }
            || requests <= 0 || seconds <= 0)
        {
            return null;
        }

        var gen1 = gen1After - gen1Before;
        var gen2 = gen2After - gen2Before;
        return new GcUsage
        {
            AllocatedBytesPerRequest = (allocated1 - allocated0) / requests,
            PauseShare = (pause1 - pause0) / seconds,
            Gen0Collections = all1 - all0 - gen1 - gen2,
            Gen1Collections = gen1,
            Gen2Collections = gen2,
            ExceptionsPerSecond = after.Exceptions - before.Exceptions is { } thrown ? thrown / seconds : null,
        };
    }
}
