using System.Buffers;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Core;

/// <summary>An event-loop backend of the shared core: it says whether it can run here and creates the loops.</summary>
internal abstract class TransportBackend
{
    public abstract TransportKind Kind { get; }

    /// <summary>Why this backend cannot run in this process, with what to do about it; null when it can.</summary>
    public abstract string? WhyUnavailable();

    public abstract TransportLoop CreateLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger);
}
