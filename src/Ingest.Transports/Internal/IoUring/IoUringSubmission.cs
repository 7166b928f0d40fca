using System.Runtime.InteropServices;

namespace Ingest.Transports.Internal.IoUring;

/// <summary><c>struct io_uring_sqe</c>: one submission-queue entry (64 bytes).</summary>
[StructLayout(LayoutKind.Explicit, Size = 64)]
internal struct IoUringSubmission
{
    public const byte OpPollAdd = 6;
    public const byte OpSendMsg = 9;
    public const byte OpAccept = 13;
    public const byte OpRead = 22;
    public const byte OpSend = 26;
    public const byte OpRecv = 27;

    [FieldOffset(0)]
    public byte Opcode;

    [FieldOffset(1)]
    public byte Flags;

    [FieldOffset(2)]
    public ushort IoPriority;

    [FieldOffset(4)]
    public int Fd;

    /// <summary><c>off</c> / <c>addr2</c>: for ACCEPT, the address of the socklen_t.</summary>
    [FieldOffset(8)]
    public ulong Offset;

    [FieldOffset(16)]
    public ulong Address;

    [FieldOffset(24)]
    public uint Length;

    /// <summary>The per-opcode flags union: msg_flags, accept_flags, poll32_events.</summary>
    [FieldOffset(28)]
    public uint OpFlags;

    [FieldOffset(32)]
    public ulong UserData;

    [FieldOffset(40)]
    public ushort BufferIndex;

    [FieldOffset(42)]
    public ushort Personality;

    [FieldOffset(44)]
    public int SpliceFdIn;

    [FieldOffset(48)]
    public ulong Address3;

    [FieldOffset(56)]
    public ulong Padding;
}
