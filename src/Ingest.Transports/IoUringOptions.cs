namespace Ingest.Transports;

/// <summary>Settings of the <see cref="TransportKind.IoUring"/> transport, bound from <c>Kestrel:IoUring</c>.</summary>
public sealed class IoUringOptions : NativeTransportOptions
{
    /// <summary>The configuration section: <c>Kestrel:IoUring</c>.</summary>
    public const string SectionName = "Kestrel:IoUring";

    /// <summary>
    /// Submission-queue entries per ring (a power of two, 8 to 32768); the completion queue is twice as large.
    /// Defaults to 4096 entries.
    /// </summary>
    public int RingEntries { get; set; } = 4096;

    /// <summary>
    /// Wait until a socket is readable (IORING_OP_POLL_ADD) before renting its receive buffer: saves memory on idle
    /// connections at the price of a second operation per read. Defaults to <see langword="false"/>.
    /// </summary>
    public bool WaitForDataBeforeAllocatingBuffer { get; set; }

    /// <summary>
    /// Let the kernel keep the work that completes a socket operation until the transport thread asks for
    /// completions (IORING_SETUP_DEFER_TASKRUN with SINGLE_ISSUER, Linux 6.1+), instead of running it whenever the
    /// thread enters the kernel (IORING_SETUP_COOP_TASKRUN). On a kernel without it the ring uses the cooperative
    /// mode. Defaults to <see langword="false"/>: on the 2-core reference machine the two modes measured level
    /// (docs/notebook/transports.md#iouring-profiled); measure it on yours with the lab's IoUring-Deferred variant.
    /// </summary>
    public bool DeferTaskRun { get; set; }
}
