using System.Diagnostics.CodeAnalysis;

namespace Ingest.Wire.Linux;

/// <summary><c>struct msghdr</c> (64-bit layout).</summary>
[SuppressMessage("Design", "CA1051:Do not declare visible instance fields", Justification = "A kernel ABI struct: its fields are its layout, read and written in place.")]
public unsafe struct MessageHeader
{
    public void* Name;
    public uint NameLength;
    public IoVector* IoVectors;
    public nuint IoVectorCount;
    public void* Control;
    public nuint ControlLength;
    public int Flags;
}
