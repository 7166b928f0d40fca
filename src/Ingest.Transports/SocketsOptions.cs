namespace Ingest.Transports;

/// <summary>
/// Kestrel's Sockets transport settings, bound from <c>Kestrel:Sockets</c> onto
/// <c>SocketTransportOptions</c>. The defaults repeat Kestrel's own so a run never depends on the reader knowing them.
/// The runtime's socket engine has two more knobs, read from the environment at process start:
/// <c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1</c> (run socket completions on the epoll thread) and
/// <c>DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=N</c> (number of epoll threads); see docs/transports.md.
/// </summary>
public sealed class SocketsOptions
{
    /// <summary>The configuration section: <c>Kestrel:Sockets</c>.</summary>
    public const string SectionName = "Kestrel:Sockets";

    /// <summary>
    /// Number of I/O queues that schedule transport-side pipe work; 0 schedules on the thread pool.
    /// Defaults to <c>Math.Min(Environment.ProcessorCount, 16)</c>.
    /// </summary>
    public int IOQueueCount { get; set; } = Math.Min(Environment.ProcessorCount, 16);

    /// <summary>
    /// Run application code inline on the thread that completed the socket operation instead of dispatching to
    /// the thread pool. Unsafe when application code blocks. Defaults to <see langword="false"/>.
    /// </summary>
    public bool UnsafePreferInlineScheduling { get; set; }

    /// <summary>Wait until data is readable before renting a receive buffer (saves memory on idle connections). Defaults to <see langword="true"/>.</summary>
    public bool WaitForDataBeforeAllocatingBuffer { get; set; } = true;

    /// <summary>Disable Nagle's algorithm on accepted connections. Defaults to <see langword="true"/>.</summary>
    public bool NoDelay { get; set; } = true;

    /// <summary>Maximum length of the pending-connection queue. Defaults to 512 pending connections.</summary>
    public int Backlog { get; set; } = 512;

    /// <summary>Bytes buffered from a connection before the transport stops reading from it; null means unlimited. Defaults to 1 MiB.</summary>
    public long? MaxReadBufferSize { get; set; } = 1024 * 1024;

    /// <summary>Bytes the application may buffer for sending before its flush waits; null means unlimited. Defaults to 64 KiB.</summary>
    public long? MaxWriteBufferSize { get; set; } = 64 * 1024;
}
