namespace Ingest.Transports;

/// <summary>The Kestrel transport selected by <c>Kestrel:Transport</c>.</summary>
public enum TransportKind
{
    /// <summary>Kestrel's own transport over <c>System.Net.Sockets</c> (epoll inside the runtime).</summary>
    Sockets,

    /// <summary>Ingest's libuv backend: one libuv loop per transport thread, over Debian's <c>libuv1</c>.</summary>
    Libuv,

    /// <summary>Ingest's epoll backend: one epoll instance and one SO_REUSEPORT listener per transport thread, optional Linux AIO batching.</summary>
    LinuxEpoll,

    /// <summary>Ingest's io_uring backend: one ring per transport thread, driven by raw io_uring syscalls.</summary>
    IoUring,
}
