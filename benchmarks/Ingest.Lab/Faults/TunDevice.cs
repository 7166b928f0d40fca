using System.Runtime.InteropServices;
using System.Text;
using Ingest.Wire.Linux;

namespace Ingest.Lab.Faults;

/// <summary>
/// A Linux TUN device (Documentation/networking/tuntap.rst): an IP interface whose packets a process reads and writes
/// through a file descriptor. Created in the lab's namespace under a name of its own, then moved into another namespace
/// (<c>ip link set … netns</c>), where it keeps working: the descriptor stays the device's, wherever it lives. Closing
/// the descriptor removes the device.
/// </summary>
internal sealed unsafe class TunDevice : IDisposable
{
    private const short IffTun = 0x0001;
    private const short IffNoPacketInformation = 0x1000;
    private const uint TunSetInterface = 0x400454ca; // _IOW('T', 202, int)
    private const int InterfaceNameSize = 16;
    private const int InterfaceRequestSize = 40; // struct ifreq

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
        int fd;
        fixed (byte* path = "/dev/net/tun\0"u8)
        {
            fd = LibC.open(path, LibC.O_RDWR | LibC.O_NONBLOCK | LibC.O_CLOEXEC);
        }

        if (fd < 0)
        {
            throw Failure("open /dev/net/tun");
        }

        Span<byte> request = stackalloc byte[InterfaceRequestSize];
        request.Clear();
        Encoding.ASCII.GetBytes(name, request[..(InterfaceNameSize - 1)]);
        BitConverter.TryWriteBytes(request[InterfaceNameSize..], (short)(IffTun | IffNoPacketInformation));
        fixed (byte* argument = request)
        {
            if (LibC.ioctl(fd, TunSetInterface, argument) != 0)
            {
                var error = Failure($"TUNSETIFF {name}");
                _ = LibC.close(fd);
                throw error;
            }
        }

        return new TunDevice(fd, name);
    }

    /// <summary>Waits up to <paramref name="milliseconds"/> for a packet to read; true when one is there.</summary>
    public bool WaitReadable(int milliseconds)
    {
        var poll = new PollDescriptor { Fd = _fd, Events = LibC.POLLIN };
        return LibC.poll(&poll, 1, milliseconds) > 0;
    }

    /// <summary>Reads one packet into <paramref name="buffer"/>: its length, or 0 when none is waiting.</summary>
    public int Read(Span<byte> buffer)
    {
        fixed (byte* into = buffer)
        {
            while (true)
            {
                var read = LibC.read(_fd, into, buffer.Length);
                if (read >= 0)
                {
                    return (int)read;
                }

                var errno = LibC.LastErrno;
                if (errno == Errno.EAGAIN)
                {
                    return 0;
                }

                if (errno != Errno.EINTR)
                {
                    throw Failure($"read {Name}", errno);
                }
            }
        }
    }

    /// <summary>Hands one packet to the kernel, as if it had arrived on the device. A packet the kernel refuses (its
    /// queue full, the device down) is dropped, as a wire would.</summary>
    public void Write(ReadOnlySpan<byte> packet)
    {
        fixed (byte* from = packet)
        {
            _ = LibC.write(_fd, from, packet.Length);
        }
    }

    public void Dispose()
    {
        var fd = Interlocked.Exchange(ref _fd, -1);
        if (fd >= 0)
        {
            _ = LibC.close(fd);
        }
    }

    private static InvalidOperationException Failure(string call, int errno = -1)
    {
        errno = errno < 0 ? LibC.LastErrno : errno;
        return new InvalidOperationException($"{call} failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
    }
}
