namespace Ingest.LoadGen;

/// <summary>How an open-loop run kept its schedule.</summary>
public sealed record OpenLoopSummary
{
    /// <summary>Requests per second asked for.</summary>
    public required double Rate { get; init; }

    /// <summary>Requests that were due in the measured phase.</summary>
    public required long Due { get; init; }

    /// <summary>Requests due but never sent because no connection was free before the run ended.</summary>
    public required long Unsent { get; init; }

    /// <summary>How late requests were sent after their due time: the generator's timer resolution plus
    /// any wait for a free connection (a stalled server makes this grow; it is part of the latency).</summary>
    public required LatencySummary SendDelay { get; init; }
}
