namespace Ingest.Transports.Internal.Epoll;

/// <summary><c>struct iocb</c> of the Linux AIO ABI (64 bytes, little-endian field order).</summary>
internal struct AioControlBlock
{
    public const ushort CommandPreadv = 7;
    public const ushort CommandPwritev = 8;

    public ulong Data;
    public uint Key;
    public int ReadWriteFlags;
    public ushort Opcode;
    public short RequestPriority;
    public uint Fd;
    public ulong Buffer;
    public ulong Bytes;
    public long Offset;
    public ulong Reserved2;
    public uint Flags;
    public uint ResultFd;
}
