namespace Ingest.Transports.Internal.Native;

/// <summary><c>struct iovec</c>.</summary>
internal unsafe struct IoVector
{
    public byte* Base;
    public nuint Length;
}
