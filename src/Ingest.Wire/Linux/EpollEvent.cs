using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;

namespace Ingest.Wire.Linux;

/// <summary>
/// <c>struct epoll_event</c> as x86-64 lays it out: the kernel declares it packed there (12 bytes, data at offset 4) and
/// naturally aligned on other architectures (16 bytes, data at offset 8), which is why <see cref="LibC.epoll_ctl"/> and
/// <see cref="LibC.epoll_wait"/> take a plain pointer. Code that uses this struct runs on x86-64 only (the transports
/// check it at start-up); code that runs anywhere reads the kernel's layout for the process's architecture.
/// </summary>
[StructLayout(LayoutKind.Sequential, Pack = 4)]
[SuppressMessage("Design", "CA1051:Do not declare visible instance fields", Justification = "A kernel ABI struct: its fields are its layout, read and written in place.")]
public struct EpollEvent
{
    public uint Events;
    public ulong Data;
}
