using System.Runtime.InteropServices;

namespace Ingest.Transports.Internal.Native;

/// <summary>
/// <c>struct epoll_event</c>. The kernel declares it packed on x86-64 (12 bytes, data at offset 4); the transports
/// check the architecture at start-up, see <see cref="NativePlatform"/>.
/// </summary>
[StructLayout(LayoutKind.Sequential, Pack = 4)]
internal struct EpollEvent
{
    public uint Events;
    public ulong Data;
}
