namespace Ingest.Lab;

/// <summary>
/// One second of a soak, as the probe saw it: the whole machine (busy cores, cores stolen by the hypervisor, cores
/// used by processes that are not the soak's, the load average) and each of the soak's services. After the run
/// the load generator's own figures for the same second are added (responses, slowest response), so a long tail
/// can be read against what happened around it.
/// </summary>
internal sealed record SoakSecond(int Second, double MachineBusyCores, double StealCores, double OtherCores, double? LoadAverage, double LoadGeneratorCores, IReadOnlyList<SoakProcessSecond> Processes)
{
    /// <summary>Responses the load generator completed in this second.</summary>
    public long Requests { get; init; }

    /// <summary>The slowest of them, in ms (open loop: from its intended send time).</summary>
    public double MaxLatencyMs { get; init; }
}
