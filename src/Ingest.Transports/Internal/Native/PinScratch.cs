using System.Buffers;

namespace Ingest.Transports.Internal.Native;

/// <summary>
/// Per-thread room for the <see cref="MemoryHandle"/>s that keep a send's segments pinned for the duration of a
/// syscall: sends run on loop threads and, with DeferSend off, on the threads that flushed.
/// </summary>
internal static class PinScratch
{
    /// <summary>Segments gathered into one sendmsg/writev; a 64 KiB write buffer is 16 blocks of 4 KiB.</summary>
    public const int MaxSegments = 64;

    [ThreadStatic]
    private static MemoryHandle[]? t_handles;

    public static MemoryHandle[] Handles => t_handles ??= new MemoryHandle[MaxSegments];
}
