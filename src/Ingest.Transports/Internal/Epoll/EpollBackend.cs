using System.Buffers;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.Native;
using Ingest.Wire.Linux;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Epoll;

/// <summary>The LinuxEpoll backend: epoll loops, optionally batching socket I/O through Linux AIO.</summary>
internal sealed class EpollBackend(bool usesAio) : TransportBackend
{
    public override TransportKind Kind => TransportKind.LinuxEpoll;

    public override string? WhyUnavailable()
    {
        if (NativePlatform.UnsupportedReason is { } platform)
        {
            return platform + ".";
        }

        var epoll = LibC.epoll_create1(LibC.EPOLL_CLOEXEC);
        if (epoll < 0)
        {
            return $"epoll_create1 failed with {Errno.Describe(LibC.LastErrno)}.";
        }

        _ = LibC.close(epoll);
        return usesAio ? AioBatch.Probe() : null;
    }

    public override TransportLoop CreateLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger) =>
        new EpollLoop(index, settings, memoryPool, logger);
}
