using System.Buffers;
using Ingest.Transports.Internal.Core;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Libuv;

/// <summary>The Libuv backend (not built yet).</summary>
internal sealed class LibuvBackend : TransportBackend
{
    public override TransportKind Kind => TransportKind.Libuv;

    public override string? WhyUnavailable() => "the Libuv backend is not part of this build yet.";

    public override TransportLoop CreateLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger) =>
        throw new NotSupportedException(WhyUnavailable());
}
