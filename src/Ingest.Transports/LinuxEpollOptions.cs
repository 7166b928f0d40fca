namespace Ingest.Transports;

/// <summary>Settings of the <see cref="TransportKind.LinuxEpoll"/> transport, bound from <c>Kestrel:LinuxEpoll</c>.</summary>
public sealed class LinuxEpollOptions : NativeTransportOptions
{
    /// <summary>The configuration section: <c>Kestrel:LinuxEpoll</c>.</summary>
    public const string SectionName = "Kestrel:LinuxEpoll";

    /// <summary>
    /// Batch the receives of one loop iteration into one <c>io_submit</c> (Linux AIO, IOCB_CMD_PREADV) instead of
    /// one <c>recv</c> per ready socket. Defaults to <see langword="false"/>.
    /// </summary>
    public bool AioReceive { get; set; }

    /// <summary>
    /// Batch the sends of one loop iteration into one <c>io_submit</c> (IOCB_CMD_PWRITEV). Needs
    /// <see cref="DeferSend"/>. Defaults to <see langword="false"/>.
    /// </summary>
    public bool AioSend { get; set; }

    /// <summary>
    /// Send from the transport thread at the end of its loop iteration, coalescing every flush made since, instead
    /// of sending inline from the thread that flushed. Defaults to <see langword="true"/>.
    /// </summary>
    public bool DeferSend { get; set; } = true;

    /// <summary>Wait until a socket is readable before renting its receive buffer (saves memory on idle connections; free with epoll). Defaults to <see langword="true"/>.</summary>
    public bool WaitForDataBeforeAllocatingBuffer { get; set; } = true;
}
