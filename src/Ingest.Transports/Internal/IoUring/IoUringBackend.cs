using System.Buffers;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.Native;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.IoUring;

/// <summary>The IoUring backend: one ring per transport thread over raw io_uring syscalls.</summary>
internal sealed class IoUringBackend : TransportBackend
{
    public override TransportKind Kind => TransportKind.IoUring;

    public override string? WhyUnavailable() => NativePlatform.UnsupportedReason is { } platform ? platform + "." : IoUringRing.Probe();

    public override TransportLoop CreateLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger) =>
        new IoUringLoop(index, settings, memoryPool, logger);
}
