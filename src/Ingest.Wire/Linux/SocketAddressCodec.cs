using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Ingest.Wire.Linux;

/// <summary>
/// Converts endpoints to and from the kernel's <c>sockaddr_in</c>, <c>sockaddr_in6</c> and <c>sockaddr_un</c> (man 7 ip,
/// ipv6, unix): the family in host order, the port in network order.
/// </summary>
public static class SocketAddressCodec
{
    /// <summary>Large enough for every address family used here (<c>sizeof(struct sockaddr_un)</c> is 110).</summary>
    public const int MaxLength = 128;

    private const int UnixPathOffset = 2;
    private const int UnixPathCapacity = 108;

    public static int FamilyOf(EndPoint endPoint) => endPoint switch
    {
        IPEndPoint { AddressFamily: AddressFamily.InterNetwork } => LibC.AF_INET,
        IPEndPoint { AddressFamily: AddressFamily.InterNetworkV6 } => LibC.AF_INET6,
        UnixDomainSocketEndPoint => LibC.AF_UNIX,
        _ => throw Unsupported(endPoint),
    };

    /// <summary>Writes the address into <paramref name="buffer"/> and returns its length.</summary>
    public static int Write(EndPoint endPoint, Span<byte> buffer)
    {
        buffer.Clear();
        switch (endPoint)
        {
            case IPEndPoint { AddressFamily: AddressFamily.InterNetwork } ip:
                BinaryPrimitives.WriteUInt16LittleEndian(buffer, LibC.AF_INET);
                BinaryPrimitives.WriteUInt16BigEndian(buffer[2..], (ushort)ip.Port);
                ip.Address.TryWriteBytes(buffer.Slice(4, 4), out _);
                return 16;
            case IPEndPoint { AddressFamily: AddressFamily.InterNetworkV6 } ip:
                BinaryPrimitives.WriteUInt16LittleEndian(buffer, LibC.AF_INET6);
                BinaryPrimitives.WriteUInt16BigEndian(buffer[2..], (ushort)ip.Port);
                ip.Address.TryWriteBytes(buffer.Slice(8, 16), out _);
                BinaryPrimitives.WriteUInt32LittleEndian(buffer[24..], (uint)ip.Address.ScopeId);
                return 28;
            case UnixDomainSocketEndPoint unix:
                var path = unix.ToString();
                BinaryPrimitives.WriteUInt16LittleEndian(buffer, LibC.AF_UNIX);
                var written = Encoding.UTF8.GetBytes(path, buffer.Slice(UnixPathOffset, UnixPathCapacity - 1));
                // An abstract address (leading NUL) has no terminator; a path one is NUL-terminated.
                return path.Length > 0 && path[0] == '\0' ? UnixPathOffset + written : UnixPathOffset + written + 1;
            default:
                throw Unsupported(endPoint);
        }
    }

    /// <summary>Reads an address the kernel wrote; null for an unnamed Unix socket peer.</summary>
    public static EndPoint? Read(ReadOnlySpan<byte> buffer, int length)
    {
        if (length < 2)
        {
            return null;
        }

        int family = BinaryPrimitives.ReadUInt16LittleEndian(buffer);
        switch (family)
        {
            case LibC.AF_INET when length >= 16:
                return new IPEndPoint(new IPAddress(buffer.Slice(4, 4)), BinaryPrimitives.ReadUInt16BigEndian(buffer[2..]));
            case LibC.AF_INET6 when length >= 28:
                var scope = BinaryPrimitives.ReadUInt32LittleEndian(buffer[24..]);
                return new IPEndPoint(new IPAddress(buffer.Slice(8, 16), scope), BinaryPrimitives.ReadUInt16BigEndian(buffer[2..]));
            case LibC.AF_UNIX when length > UnixPathOffset:
                var path = buffer[UnixPathOffset..length];
                var end = path[0] == 0 ? path.Length : path.IndexOf((byte)0);
                return new UnixDomainSocketEndPoint(Encoding.UTF8.GetString(end < 0 ? path : path[..end]));
            default:
                return null;
        }
    }

    public static unsafe EndPoint? LocalEndPoint(int fd)
    {
        var buffer = stackalloc byte[MaxLength];
        var length = MaxLength;
        return LibC.getsockname(fd, buffer, &length) == 0 ? Read(new ReadOnlySpan<byte>(buffer, MaxLength), length) : null;
    }

    public static unsafe EndPoint? RemoteEndPoint(int fd)
    {
        var buffer = stackalloc byte[MaxLength];
        var length = MaxLength;
        return LibC.getpeername(fd, buffer, &length) == 0 ? Read(new ReadOnlySpan<byte>(buffer, MaxLength), length) : null;
    }

    private static NotSupportedException Unsupported(EndPoint endPoint) =>
        new($"{endPoint.GetType().Name} '{endPoint}' has no Linux socket address here: IP and Unix socket endpoints do.");
}
