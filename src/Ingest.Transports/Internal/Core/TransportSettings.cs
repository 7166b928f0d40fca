using System.IO.Pipelines;

namespace Ingest.Transports.Internal.Core;

/// <summary>The validated settings one custom transport runs with, resolved once from its options class.</summary>
internal sealed record TransportSettings
{
    public required TransportKind Kind { get; init; }

    public required int ThreadCount { get; init; }

    public required bool NoDelay { get; init; }

    public required int Backlog { get; init; }

    /// <summary>0 means unlimited, as for <see cref="PipeOptions"/>.</summary>
    public required long MaxReadBufferSize { get; init; }

    /// <summary>0 means unlimited, as for <see cref="PipeOptions"/>.</summary>
    public required long MaxWriteBufferSize { get; init; }

    public required ApplicationSchedulingMode ApplicationSchedulingMode { get; init; }

    public bool WaitForData { get; init; }

    public bool DeferSend { get; init; } = true;

    public bool AioReceive { get; init; }

    public bool AioSend { get; init; }

    public int RingEntries { get; init; }

    public bool DeferTaskRun { get; init; }

    public PipeScheduler ApplicationScheduler =>
        ApplicationSchedulingMode == ApplicationSchedulingMode.Inline ? PipeScheduler.Inline : PipeScheduler.ThreadPool;

    public static TransportSettings From(LinuxEpollOptions options) => Common(TransportKind.LinuxEpoll, options) with
    {
        WaitForData = options.WaitForDataBeforeAllocatingBuffer,
        DeferSend = options.DeferSend,
        AioReceive = options.AioReceive,
        AioSend = options.AioSend,
    };

    public static TransportSettings From(IoUringOptions options) => Common(TransportKind.IoUring, options) with
    {
        WaitForData = options.WaitForDataBeforeAllocatingBuffer,
        RingEntries = options.RingEntries,
        DeferTaskRun = options.DeferTaskRun,
    };

    public static TransportSettings From(LibuvOptions options) => Common(TransportKind.Libuv, options) with
    {
        // libuv polls before it asks for a buffer: waiting for data is built in.
        WaitForData = false,
    };

    private static TransportSettings Common(TransportKind kind, NativeTransportOptions options) => new()
    {
        Kind = kind,
        ThreadCount = options.ThreadCount,
        NoDelay = options.NoDelay,
        Backlog = options.Backlog,
        MaxReadBufferSize = options.MaxReadBufferSize ?? 0,
        MaxWriteBufferSize = options.MaxWriteBufferSize ?? 0,
        ApplicationSchedulingMode = options.ApplicationSchedulingMode,
    };
}
