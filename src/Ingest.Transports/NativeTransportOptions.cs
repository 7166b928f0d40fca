namespace Ingest.Transports;

/// <summary>
/// Settings every Ingest transport backend (LinuxEpoll, IoUring, Libuv) shares. Each backend binds its own
/// section (<c>Kestrel:LinuxEpoll</c>, <c>Kestrel:IoUring</c>, <c>Kestrel:Libuv</c>).
/// </summary>
public abstract class NativeTransportOptions
{
    /// <summary>Largest <see cref="ThreadCount"/> accepted: more loops than this only adds contention.</summary>
    public const int MaxThreadCount = 256;

    /// <summary>
    /// Number of transport threads, each with its own event loop and its own listening socket per endpoint.
    /// Defaults to <c>Math.Min(Environment.ProcessorCount, 16)</c>.
    /// </summary>
    public int ThreadCount { get; set; } = Math.Min(Environment.ProcessorCount, 16);

    /// <summary>Disable Nagle's algorithm on accepted TCP connections. Defaults to <see langword="true"/>.</summary>
    public bool NoDelay { get; set; } = true;

    /// <summary>Maximum length of each listening socket's pending-connection queue. Defaults to 512 pending connections.</summary>
    public int Backlog { get; set; } = 512;

    /// <summary>Bytes buffered from a connection before the transport stops reading from it; null means unlimited. Defaults to 1 MiB.</summary>
    public long? MaxReadBufferSize { get; set; } = 1024 * 1024;

    /// <summary>Bytes the application may buffer for sending before its flush waits; null means unlimited. Defaults to 64 KiB.</summary>
    public long? MaxWriteBufferSize { get; set; } = 64 * 1024;

    /// <summary>Where application code runs when data arrives. Defaults to <see cref="Transports.ApplicationSchedulingMode.ThreadPool"/>.</summary>
    public ApplicationSchedulingMode ApplicationSchedulingMode { get; set; } = ApplicationSchedulingMode.ThreadPool;
}
