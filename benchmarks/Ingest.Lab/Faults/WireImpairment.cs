using System.Diagnostics;

namespace Ingest.Lab.Faults;

/// <summary>
/// What the <see cref="Wire"/> does to each packet it carries, in either direction: holds it <see cref="Delay"/>, give
/// or take up to <see cref="Jitter"/> (uniformly), and holds a <see cref="HeldShare"/> of them <see cref="Hold"/>
/// longer, so later packets overtake them. The delays of netem (<c>delay 50ms 10ms</c>, <c>delay 10ms reorder</c>),
/// which a kernel without sch_netem cannot give; packets whose times cross are delivered in the order of their times,
/// as netem's queue does.
/// </summary>
internal sealed record WireImpairment(TimeSpan Delay, TimeSpan Jitter, double HeldShare, TimeSpan Hold)
{
    /// <summary>Every packet carried at once.</summary>
    public static readonly WireImpairment None = new(TimeSpan.Zero, TimeSpan.Zero, 0, TimeSpan.Zero);

    /// <summary>When a packet read at <paramref name="now"/> (a <see cref="Stopwatch"/> timestamp) is to be delivered.</summary>
    public long DeliverAt(long now, Random random)
    {
        var delay = Delay + (Jitter * ((random.NextDouble() * 2) - 1));
        if (HeldShare > 0 && random.NextDouble() < HeldShare)
        {
            delay += Hold;
        }

        return delay <= TimeSpan.Zero ? now : now + (long)(delay.TotalSeconds * Stopwatch.Frequency);
    }
}
