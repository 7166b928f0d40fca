namespace Ingest.LoadGen;

/// <summary>
/// When a target is warm: after a first phase, load goes on in slices of <see cref="Slice"/> until
/// <see cref="FlatSlices"/> slices in a row are each no more than 5% faster than the one before (tiered compilation,
/// the thread pool and connection pools settling), up to a limit. One flat slice is not enough: tiered compilation
/// promotes methods in bursts, and a JIT service can hold level for a while and then keep gaining for many seconds,
/// long after Go and Native AOT are flat (docs/notebook/classic.md#reading-it,
/// docs/notebook/transports.md#reading-it). The lab's warm-up and the load generator's <c>--warmup-limit</c> both
/// follow this rule, so a lab run and a Crank run warm a service alike. One instance follows one warm-up.
/// </summary>
public sealed class WarmUpRule(TimeSpan limit)
{
    /// <summary>Each further warm-up phase once the first is over.</summary>
    public static readonly TimeSpan Slice = TimeSpan.FromSeconds(2);

    /// <summary>Consecutive slices without a 5% gain that end the warm-up.</summary>
    public const int FlatSlices = 2;

    private double? _previous;
    private int _flat;

    /// <summary>The warm-up phases recorded so far, in all.</summary>
    public TimeSpan Elapsed { get; private set; }

    /// <summary>Whether the warm-up ended because the rate stopped rising (false: the limit ended it).</summary>
    public bool Stable => _flat >= FlatSlices;

    /// <summary>Whether a warm-up phase was more than 5% faster than the one before it (the first always is).</summary>
    public static bool StillRising(double? previousRequestsPerSecond, double requestsPerSecond) =>
        previousRequestsPerSecond is not { } before || requestsPerSecond > before * 1.05;

    /// <summary>Records a phase of <paramref name="length"/> that served <paramref name="requestsPerSecond"/>; returns
    /// true when the warm-up is over (stable, or another slice would pass the limit).</summary>
    public bool Over(TimeSpan length, double requestsPerSecond)
    {
        Elapsed += length;
        _flat = StillRising(_previous, requestsPerSecond) ? 0 : _flat + 1;
        _previous = requestsPerSecond;
        return Stable || Elapsed + Slice > limit;
    }
}
