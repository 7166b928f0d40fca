namespace Ingest.Transports.Internal.Native;

/// <summary><c>struct msghdr</c> (64-bit layout).</summary>
internal unsafe struct MessageHeader
{
    public void* Name;
    public uint NameLength;
    public IoVector* IoVectors;
    public nuint IoVectorCount;
    public void* Control;
    public nuint ControlLength;
    public int Flags;
}
