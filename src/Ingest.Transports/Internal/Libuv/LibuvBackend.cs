using System.Buffers;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.Native;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Libuv;

/// <summary>The Libuv backend: one libuv loop per transport thread, over the system's libuv 1.x.</summary>
internal sealed class LibuvBackend : TransportBackend
{
    public override TransportKind Kind => TransportKind.Libuv;

    public override string? WhyUnavailable()
    {
        if (NativePlatform.UnsupportedReason is { } platform)
        {
            return platform + ".";
        }

        if (LibuvNative.WhyUnavailable(LibuvNative.CandidateFiles) is { } missing)
        {
            return missing;
        }

        LibuvNative.EnsureResolver();
        var version = LibuvNative.uv_version();
        return version >> 16 != 1
            ? $"the libuv found is version {version >> 16}.{(version >> 8) & 0xff}; the transport is built for libuv 1.x. Install libuv1."
            : null;
    }

    public override TransportLoop CreateLoop(int index, TransportSettings settings, MemoryPool<byte> memoryPool, ILogger logger) =>
        new LibuvLoop(index, settings, memoryPool, logger);
}
