namespace Ingest.Lab.Faults;

/// <summary>The kinds of fault the faults command puts on the link between the front-end and the back-end; how each is
/// made is <see cref="FaultNetwork.Apply"/>'s business.</summary>
internal enum FaultKind
{
    /// <summary>Every packet held a while, give or take (the wire).</summary>
    Latency,

    /// <summary>A share of the packets dropped, each way (nftables).</summary>
    Loss,

    /// <summary>A share of the packets held back, so later ones overtake them (the wire).</summary>
    Reorder,

    /// <summary>A share of the packets sent twice, each way (nftables).</summary>
    Duplicate,

    /// <summary>Every packet dropped, both ways, without a reset or an ICMP error (nftables).</summary>
    Partition,

    /// <summary>The back-end answers no new connection: its SYNs are dropped, and the connections the front-end held are
    /// gone (the socket killer, <c>ss -K</c>), so every forward needs a connection that never comes (nftables).</summary>
    BlackHole,

    /// <summary>The link's rate capped, each way (tc's token bucket filter).</summary>
    Bandwidth,
}
