using System.Net;
using System.Net.Sockets;
using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// Creates the listening descriptors of one endpoint, one per transport thread. TCP endpoints get one socket per
/// thread, all bound with SO_REUSEPORT so the kernel spreads incoming connections across the threads without a
/// shared accept queue. A Unix socket path can only be bound once, so each thread gets a dup() of one socket.
/// </summary>
internal static unsafe class ListenSockets
{
    /// <summary>Binds <paramref name="count"/> listening descriptors and returns them with the bound endpoint (real port for port 0).</summary>
    public static (int[] Fds, EndPoint EndPoint) Bind(EndPoint endPoint, int count, int backlog)
    {
        var fds = new List<int>(count);
        try
        {
            if (endPoint is UnixDomainSocketEndPoint)
            {
                var first = CreateBound(endPoint, reusePort: false, backlog);
                fds.Add(first);
                for (var i = 1; i < count; i++)
                {
                    var copy = LibC.dup(first);
                    if (copy < 0)
                    {
                        throw new IOException($"dup of the listening socket for {endPoint} failed: {Errno.Describe(LibC.LastErrno)}.");
                    }

                    fds.Add(copy);
                }

                return (fds.ToArray(), endPoint);
            }

            var ip = (IPEndPoint)endPoint;
            if (ip.Port != 0)
            {
                // SO_REUSEPORT lets a second process of the same user bind the same port silently and steal half
                // of the connections. A plain bind first turns "already in use" into the clear error Kestrel
                // reports for the Sockets transport.
                ThrowIfInUse(ip);
            }

            var bound = ip;
            for (var i = 0; i < count; i++)
            {
                var fd = CreateBound(bound, reusePort: true, backlog);
                fds.Add(fd);
                if (i == 0)
                {
                    bound = (IPEndPoint)(SocketAddressCodec.LocalEndPoint(fd) ?? ip);
                }
            }

            return (fds.ToArray(), bound);
        }
        catch
        {
            foreach (var fd in fds)
            {
                _ = LibC.close(fd);
            }

            throw;
        }
    }

    /// <summary>Sets TCP_NODELAY on an accepted TCP socket.</summary>
    public static void SetNoDelay(int fd)
    {
        var one = 1;
        _ = LibC.setsockopt(fd, LibC.IPPROTO_TCP, LibC.TCP_NODELAY, &one, sizeof(int));
    }

    private static void ThrowIfInUse(IPEndPoint endPoint)
    {
        var fd = CreateSocket(endPoint);
        try
        {
            SetOption(fd, LibC.SOL_SOCKET, LibC.SO_REUSEADDR, 1);
            BindOrThrow(fd, endPoint);
        }
        finally
        {
            _ = LibC.close(fd);
        }
    }

    private static int CreateBound(EndPoint endPoint, bool reusePort, int backlog)
    {
        var fd = CreateSocket(endPoint);
        try
        {
            if (endPoint is IPEndPoint ip)
            {
                // As .NET does on Unix: a restarted server can rebind while old connections sit in TIME_WAIT.
                SetOption(fd, LibC.SOL_SOCKET, LibC.SO_REUSEADDR, 1);
                if (reusePort)
                {
                    SetOption(fd, LibC.SOL_SOCKET, LibC.SO_REUSEPORT, 1);
                }

                if (ip.Address.Equals(IPAddress.IPv6Any))
                {
                    // Kestrel binds [::] dual-mode, so IPv4 clients reach it too.
                    SetOption(fd, LibC.IPPROTO_IPV6, LibC.IPV6_V6ONLY, 0);
                }
            }

            BindOrThrow(fd, endPoint);
            if (LibC.listen(fd, backlog) != 0)
            {
                throw new IOException($"listen on {endPoint} failed: {Errno.Describe(LibC.LastErrno)}.");
            }

            return fd;
        }
        catch
        {
            _ = LibC.close(fd);
            throw;
        }
    }

    private static int CreateSocket(EndPoint endPoint)
    {
        var fd = LibC.socket(SocketAddressCodec.FamilyOf(endPoint), LibC.SOCK_STREAM | LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC, 0);
        if (fd < 0)
        {
            throw new IOException($"socket() for {endPoint} failed: {Errno.Describe(LibC.LastErrno)}.");
        }

        return fd;
    }

    private static void BindOrThrow(int fd, EndPoint endPoint)
    {
        var address = stackalloc byte[SocketAddressCodec.MaxLength];
        var length = SocketAddressCodec.Write(endPoint, new Span<byte>(address, SocketAddressCodec.MaxLength));
        if (LibC.bind(fd, address, length) == 0)
        {
            return;
        }

        var errno = LibC.LastErrno;
        if (errno == Errno.EADDRINUSE)
        {
            throw new AddressInUseException($"{endPoint} is already in use ({Errno.Describe(errno)}): another socket listens there. Stop that process or choose another port or path.");
        }

        throw new IOException($"bind to {endPoint} failed: {Errno.Describe(errno)}.");
    }

    private static void SetOption(int fd, int level, int name, int value)
    {
        if (LibC.setsockopt(fd, level, name, &value, sizeof(int)) != 0)
        {
            throw new IOException($"setsockopt({level}, {name}) failed: {Errno.Describe(LibC.LastErrno)}.");
        }
    }
}
