namespace Ingest.Transports;

/// <summary>
/// Settings of the <see cref="TransportKind.RedHatLinux"/> transport, bound from <c>Kestrel:RedHatLinux</c> and handed to
/// the package's own <c>LinuxTransportOptions</c>. The defaults are the package's. Validated at start-up whether or not
/// the build includes the package.
/// </summary>
public sealed class RedHatLinuxOptions
{
    /// <summary>The configuration section: <c>Kestrel:RedHatLinux</c>.</summary>
    public const string SectionName = "Kestrel:RedHatLinux";

    /// <summary>
    /// Transport threads, each with its own epoll instance and SO_REUSEPORT listening socket.
    /// Defaults to <c>Math.Min(Environment.ProcessorCount, 16)</c>, as the package.
    /// </summary>
    public int ThreadCount { get; set; } = Math.Min(Environment.ProcessorCount, 16);

    /// <summary>Batch each iteration's sends into one <c>io_submit</c>; needs <see cref="DeferSend"/>. Defaults to <see langword="true"/>, as the package.</summary>
    public bool AioSend { get; set; } = true;

    /// <summary>Batch each iteration's receives into one <c>io_submit</c>. Defaults to <see langword="true"/>, as the package.</summary>
    public bool AioReceive { get; set; } = true;

    /// <summary>Send from the transport thread at the end of its iteration instead of from the flushing thread. Defaults to <see langword="true"/>, as the package.</summary>
    public bool DeferSend { get; set; } = true;

    /// <summary>Where Kestrel and the application run when data arrives. Defaults to <see cref="Transports.ApplicationSchedulingMode.ThreadPool"/>, as the package.</summary>
    public ApplicationSchedulingMode ApplicationSchedulingMode { get; set; } = ApplicationSchedulingMode.ThreadPool;

    /// <summary>
    /// Probe at start-up whether this build of the package drops the response bytes still queued when Kestrel disposes a
    /// connection (the archived source does on .NET 10: docs/transports.md), and refuse to start when it does. Set it to
    /// <see langword="false"/> only to observe the loss. Defaults to <see langword="true"/>.
    /// </summary>
    public bool RefuseLossyBuild { get; set; } = true;
}
