using System.Buffers;
using Ingest.Transports.Internal.Core;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.IoUring;

/// <summary>The IoUring backend (not built yet).</summary>
internal sealed class IoUringBackend : TransportBackend
{
    public override TransportKind Kind => TransportKind.IoUring;

    public override string? WhyUnavailable() => "the IoUring backend is not part of this build yet.";

    public override TransportLoop CreateLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger) =>
        throw new NotSupportedException(WhyUnavailable());
}
