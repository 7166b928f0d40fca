namespace Ingest.Transports.Internal.IoUring;

/// <summary><c>struct io_uring_cqe</c>: one completion (16 bytes).</summary>
internal struct IoUringCompletion
{
    public ulong UserData;
    public int Result;
    public uint Flags;
}
