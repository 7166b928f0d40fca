using System.Runtime.InteropServices;

namespace Ingest.Transports.Internal.IoUring;

/// <summary><c>struct io_uring_params</c> with its two ring-offset structs flattened (120 bytes).</summary>
[StructLayout(LayoutKind.Explicit, Size = 120)]
internal struct IoUringParameters
{
    public const uint SetupCqSize = 1u << 3;
    public const uint SetupDisabled = 1u << 6;
    public const uint SetupSubmitAll = 1u << 7;
    public const uint SetupCoopTaskRun = 1u << 8;
    public const uint SetupSingleIssuer = 1u << 12;
    public const uint SetupDeferTaskRun = 1u << 13;
    public const uint FeatureSingleMmap = 1u << 0;
    public const uint FeatureNoDrop = 1u << 1;
    public const uint FeatureFastPoll = 1u << 5;

    [FieldOffset(0)]
    public uint SqEntries;

    [FieldOffset(4)]
    public uint CqEntries;

    [FieldOffset(8)]
    public uint Flags;

    [FieldOffset(20)]
    public uint Features;

    // struct io_sqring_offsets at 40
    [FieldOffset(40)]
    public uint SqHead;

    [FieldOffset(44)]
    public uint SqTail;

    [FieldOffset(48)]
    public uint SqRingMask;

    [FieldOffset(52)]
    public uint SqRingEntries;

    [FieldOffset(64)]
    public uint SqArray;

    // struct io_cqring_offsets at 80
    [FieldOffset(80)]
    public uint CqHead;

    [FieldOffset(84)]
    public uint CqTail;

    [FieldOffset(88)]
    public uint CqRingMask;

    [FieldOffset(92)]
    public uint CqRingEntries;

    [FieldOffset(100)]
    public uint CqCqes;
}
