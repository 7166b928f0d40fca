namespace Ingest.Transports.Internal.Libuv;

/// <summary><c>uv_buf_t</c> on Unix: base pointer, then length.</summary>
internal unsafe struct UvBuffer
{
    public byte* Base;
    public nuint Length;
}
