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

    /// <summary>
    /// The original Red Hat transport (package <c>RedHat.AspNetCore.Server.Kestrel.Transport.Linux</c>, epoll + AIO), through
    /// the optional adapter <c>Ingest.Transports.RedHat</c>: present only in a build given the package
    /// (<c>-p:RedHatTransportPackages=&lt;folder&gt;</c>); otherwise choosing it stops start-up saying how to add it.
    /// </summary>
    RedHatLinux,
}
