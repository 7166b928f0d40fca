using System.Runtime.InteropServices;
using System.Text;

namespace Ingest.Lab.Faults;

/// <summary>
/// A Linux TUN device (Documentation/networking/tuntap.rst): an IP interface whose packets a process reads and writes
/// through a file descriptor. Created in the lab's namespace under a name of its own, then moved into another namespace
/// (<c>ip link set … netns</c>), where it keeps working: the descriptor stays the device's, wherever it lives. Closing
/// the descriptor removes the device.
/// </summary>
internal sealed partial class TunDevice : IDisposable
{
    private const int ReadWrite = 2;
    private const int NonBlocking = 0x800;
    private const int CloseOnExec = 0x80000;
    private const short IffTun = 0x0001;
    private const short IffNoPacketInformation = 0x1000;
    private const uint TunSetInterface = 0x400454ca; // _IOW('T', 202, int)
    private const int InterfaceNameSize = 16;
    private const int InterfaceRequestSize = 40; // struct ifreq
    private const short PollIn = 0x001;
    private const int EAGAIN = 11;
    private const int EINTR = 4;

    private int _fd;

    private TunDevice(int fd, string name)
    {
        _fd = fd;
        Name = name;
    }

    /// <summary>The name the device was created under, in the lab's namespace.</summary>
    public string Name { get; }

    /// <summary>Creates the device <paramref name="name"/> (at most 15 bytes): raw IP packets, no packet-information header.</summary>
    public static TunDevice Create(string name)
    {
        var fd = open("/dev/net/tun", ReadWrite | NonBlocking | CloseOnExec);
        if (fd < 0)
        {
            throw Failure("open /dev/net/tun");
        }

        Span<byte> request = stackalloc byte[InterfaceRequestSize];
        request.Clear();
        Encoding.ASCII.GetBytes(name, request[..(InterfaceNameSize - 1)]);
        BitConverter.TryWriteBytes(request[InterfaceNameSize..], (short)(IffTun | IffNoPacketInformation));
        if (ioctl(fd, TunSetInterface, ref MemoryMarshal.GetReference(request)) != 0)
        {
            var error = Failure($"TUNSETIFF {name}");
            _ = close(fd);
            throw error;
        }

        return new TunDevice(fd, name);
    }

    /// <summary>Waits up to <paramref name="milliseconds"/> for a packet to read; true when one is there.</summary>
    public bool WaitReadable(int milliseconds)
    {
        Span<byte> poll = stackalloc byte[8]; // struct pollfd: int fd, short events, short revents
        BitConverter.TryWriteBytes(poll, _fd);
        BitConverter.TryWriteBytes(poll[4..], PollIn);
        BitConverter.TryWriteBytes(poll[6..], (short)0);
        var ready = Poll(ref MemoryMarshal.GetReference(poll), 1, milliseconds);
        return ready > 0;
    }

    /// <summary>Reads one packet into <paramref name="buffer"/>: its length, or 0 when none is waiting.</summary>
    public int Read(Span<byte> buffer)
    {
        while (true)
        {
            var read = Read(_fd, ref MemoryMarshal.GetReference(buffer), buffer.Length);
            if (read >= 0)
            {
                return (int)read;
            }

            var errno = Marshal.GetLastPInvokeError();
            if (errno == EAGAIN)
            {
                return 0;
            }

            if (errno != EINTR)
            {
                throw Failure($"read {Name}", errno);
            }
        }
    }

    /// <summary>Hands one packet to the kernel, as if it had arrived on the device. A packet the kernel refuses (its
    /// queue full, the device down) is dropped, as a wire would.</summary>
    public void Write(ReadOnlySpan<byte> packet) => _ = Write(_fd, ref MemoryMarshal.GetReference(packet), packet.Length);

    public void Dispose()
    {
        var fd = Interlocked.Exchange(ref _fd, -1);
        if (fd >= 0)
        {
            _ = close(fd);
        }
    }

    private static InvalidOperationException Failure(string call, int errno = -1)
    {
        errno = errno < 0 ? Marshal.GetLastPInvokeError() : errno;
        return new InvalidOperationException($"{call} failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
    }

    [LibraryImport("libc", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int open(string path, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int ioctl(int fd, nuint request, ref byte argument);

    [LibraryImport("libc", EntryPoint = "poll", SetLastError = true)]
    private static partial int Poll(ref byte fds, nuint count, int timeout);

    [LibraryImport("libc", EntryPoint = "read", SetLastError = true)]
    private static partial nint Read(int fd, ref byte buffer, nint count);

    [LibraryImport("libc", EntryPoint = "write", SetLastError = true)]
    private static partial nint Write(int fd, ref byte buffer, nint count);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int close(int fd);
}
