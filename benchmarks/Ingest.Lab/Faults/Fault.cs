namespace Ingest.Lab.Faults;

/// <summary>
/// One fault of the faults command: what it does (<see cref="What"/>, as the table prints it), for how long, and the
/// figures its kind needs. <see cref="For"/> lists every fault the command runs, in order.
/// </summary>
internal sealed record Fault(string Name, FaultKind Kind, string What, TimeSpan Duration)
{
    /// <summary>The partition's length, as issue 40 gives it.</summary>
    public static readonly TimeSpan PartitionDuration = TimeSpan.FromSeconds(10);

    /// <summary>The share of packets a loss or a duplication touches, in percent.</summary>
    public int Percent { get; init; }

    /// <summary>The wire's delays, for latency and reordering.</summary>
    public WireImpairment Impairment { get; init; } = WireImpairment.None;

    /// <summary>The bandwidth cap, in kilobits a second.</summary>
    public int RateKilobits { get; init; }

    /// <summary>Whether every forward fails while it lasts, so the circuit must open (and then close again).</summary>
    public bool StopsEveryForward => Kind is FaultKind.Partition or FaultKind.BlackHole;

    /// <summary>Every fault, each lasting <paramref name="duration"/> but the partition (<see cref="PartitionDuration"/>),
    /// and the bandwidth cap at <paramref name="rateKilobits"/>.</summary>
    public static IReadOnlyList<Fault> For(TimeSpan duration, int rateKilobits) =>
    [
        new("latency", FaultKind.Latency, "50 ms ± 10 ms each way", duration)
        {
            Impairment = new WireImpairment(TimeSpan.FromMilliseconds(50), TimeSpan.FromMilliseconds(10), 0, TimeSpan.Zero),
        },
        new("loss-1", FaultKind.Loss, "1% of packets dropped each way", duration) { Percent = 1 },
        new("loss-5", FaultKind.Loss, "5% of packets dropped each way", duration) { Percent = 5 },
        new("reorder", FaultKind.Reorder, "25% of packets held 10 ms, overtaken by the next", duration)
        {
            Impairment = new WireImpairment(TimeSpan.Zero, TimeSpan.Zero, 0.25, TimeSpan.FromMilliseconds(10)),
        },
        new("duplicate", FaultKind.Duplicate, "5% of packets sent twice each way", duration) { Percent = 5 },
        new("partition", FaultKind.Partition, "every packet dropped both ways, no reset", PartitionDuration),
        new("black-hole", FaultKind.BlackHole, "SYNs to the back-end dropped, held connections killed", duration),
        new("bandwidth", FaultKind.Bandwidth, $"{rateKilobits} kbit/s each way", duration) { RateKilobits = rateKilobits },
    ];
}
