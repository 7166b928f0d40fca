namespace Ingest.Transports.Tests;

/// <summary>A transport plus the configuration keys that select it, as a user would write them.</summary>
public sealed record TransportVariant(string Name, TransportKind Kind, IReadOnlyDictionary<string, string?> Settings)
{
    /// <summary>
    /// Kestrel's Sockets transport fires ConnectionClosed when the peer's FIN arrives, and Kestrel's HTTP/1.1
    /// layer aborts the request on it, so a half-closed client gets a response only if it was written before
    /// the FIN was read (a race). The Ingest transports complete only the input on FIN.
    /// </summary>
    public bool ServesHalfClosedClients => Kind != TransportKind.Sockets;

    public static TransportVariant Sockets { get; } = new("Sockets", TransportKind.Sockets, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "Sockets",
    });

    public static TransportVariant LinuxEpoll { get; } = new("LinuxEpoll", TransportKind.LinuxEpoll, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "LinuxEpoll",
    });

    /// <summary>Every LinuxEpoll switch flipped from its default: AIO both ways, application inline on the loop.</summary>
    public static TransportVariant LinuxEpollAioInline { get; } = new("LinuxEpoll+AIO+Inline", TransportKind.LinuxEpoll, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "LinuxEpoll",
        ["Kestrel:LinuxEpoll:AioReceive"] = "true",
        ["Kestrel:LinuxEpoll:AioSend"] = "true",
        ["Kestrel:LinuxEpoll:ApplicationSchedulingMode"] = "Inline",
        ["Kestrel:LinuxEpoll:WaitForDataBeforeAllocatingBuffer"] = "false",
    });

    /// <summary>LinuxEpoll sending inline from the flushing thread (DeferSend off).</summary>
    public static TransportVariant LinuxEpollDirectSend { get; } = new("LinuxEpoll+DirectSend", TransportKind.LinuxEpoll, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "LinuxEpoll",
        ["Kestrel:LinuxEpoll:DeferSend"] = "false",
    });

    public static TransportVariant IoUring { get; } = new("IoUring", TransportKind.IoUring, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "IoUring",
    });

    /// <summary>IoUring with the completions' task work deferred to the loop thread (IORING_SETUP_DEFER_TASKRUN, single issuer).</summary>
    public static TransportVariant IoUringDeferred { get; } = new("IoUring+Deferred", TransportKind.IoUring, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "IoUring",
        ["Kestrel:IoUring:DeferTaskRun"] = "true",
    });

    /// <summary>IoUring polling before each receive (IORING_OP_POLL_ADD), application inline on the ring's thread.</summary>
    public static TransportVariant IoUringPollInline { get; } = new("IoUring+Poll+Inline", TransportKind.IoUring, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "IoUring",
        ["Kestrel:IoUring:WaitForDataBeforeAllocatingBuffer"] = "true",
        ["Kestrel:IoUring:ApplicationSchedulingMode"] = "Inline",
        ["Kestrel:IoUring:RingEntries"] = "256",
    });

    public static TransportVariant Libuv { get; } = new("Libuv", TransportKind.Libuv, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "Libuv",
    });

    /// <summary>One libuv loop running the application inline.</summary>
    public static TransportVariant LibuvInline { get; } = new("Libuv+Inline", TransportKind.Libuv, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "Libuv",
        ["Kestrel:Libuv:ThreadCount"] = "1",
        ["Kestrel:Libuv:ApplicationSchedulingMode"] = "Inline",
    });

    /// <summary>
    /// The original Red Hat transport with the package's defaults (AIO both ways, deferred sends). The start-up refusal of
    /// a lossy build is off here, so the suite runs over whichever build was supplied and shows the loss where it happens.
    /// </summary>
    public static TransportVariant RedHatLinux { get; } = new("RedHatLinux", TransportKind.RedHatLinux, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "RedHatLinux",
        ["Kestrel:RedHatLinux:RefuseLossyBuild"] = "false",
    });

    /// <summary>The Red Hat transport with every switch flipped: no AIO, inline sends, one thread running the application inline.</summary>
    public static TransportVariant RedHatLinuxInline { get; } = new("RedHatLinux+Inline", TransportKind.RedHatLinux, new Dictionary<string, string?>
    {
        ["Kestrel:Transport"] = "RedHatLinux",
        ["Kestrel:RedHatLinux:RefuseLossyBuild"] = "false",
        ["Kestrel:RedHatLinux:AioReceive"] = "false",
        ["Kestrel:RedHatLinux:AioSend"] = "false",
        ["Kestrel:RedHatLinux:DeferSend"] = "false",
        ["Kestrel:RedHatLinux:ThreadCount"] = "1",
        ["Kestrel:RedHatLinux:ApplicationSchedulingMode"] = "Inline",
    });

    public override string ToString() => Name;
}
