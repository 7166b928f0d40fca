using System.Net;
using System.Net.Sockets;
using Ingest.Wire.Linux;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// Opens the client side of a connection a transport loop will own (a forward to a back-end): a non-blocking
/// socket whose connect is awaited here, off the loop, so a slow or unreachable peer never stalls the loop's other
/// connections. Only the connected descriptor is handed to the loop.
/// </summary>
internal static unsafe class OutboundSockets
{
    /// <summary>How long one poll waits before the cancellation token is looked at again.</summary>
    private const int PollSliceMilliseconds = 50;

    /// <summary>Connects a new socket to <paramref name="endPoint"/> and returns its descriptor. Blocks the calling
    /// thread (a thread-pool thread) until connected, failed or cancelled.</summary>
    public static int Connect(EndPoint endPoint, bool noDelay, CancellationToken cancellationToken)
    {
        var fd = LibC.socket(SocketAddressCodec.FamilyOf(endPoint), LibC.SOCK_STREAM | LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC, 0);
        if (fd < 0)
        {
            throw Failure(LibC.LastErrno, endPoint);
        }

        try
        {
            if (noDelay && endPoint is IPEndPoint)
            {
                ListenSockets.SetNoDelay(fd);
            }

            var address = stackalloc byte[SocketAddressCodec.MaxLength];
            var length = SocketAddressCodec.Write(endPoint, new Span<byte>(address, SocketAddressCodec.MaxLength));
            if (LibC.connect(fd, address, length) != 0)
            {
                var errno = LibC.LastErrno;
                if (errno != Errno.EINPROGRESS && errno != Errno.EAGAIN && errno != Errno.EINTR)
                {
                    throw Failure(errno, endPoint);
                }

                WaitUntilConnected(fd, endPoint, cancellationToken);
            }

            return fd;
        }
        catch
        {
            _ = LibC.close(fd);
            throw;
        }
    }

    private static void WaitUntilConnected(int fd, EndPoint endPoint, CancellationToken cancellationToken)
    {
        var descriptor = new PollDescriptor { Fd = fd, Events = LibC.POLLOUT };
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            descriptor.ReturnedEvents = 0;
            var ready = LibC.poll(&descriptor, 1, PollSliceMilliseconds);
            if (ready < 0)
            {
                var errno = LibC.LastErrno;
                if (errno == Errno.EINTR)
                {
                    continue;
                }

                throw Failure(errno, endPoint);
            }

            if (ready == 0)
            {
                continue;
            }

            // Writable (or an error event): SO_ERROR says whether the connect succeeded.
            int error;
            var size = sizeof(int);
            if (LibC.getsockopt(fd, LibC.SOL_SOCKET, LibC.SO_ERROR, &error, &size) != 0)
            {
                throw Failure(LibC.LastErrno, endPoint);
            }

            if (error != 0)
            {
                throw Failure(error, endPoint);
            }

            return;
        }
    }

    // HttpClient reports a SocketException from its connect callback as HttpRequestError.ConnectionError, as for its own sockets.
    private static SocketException Failure(int errno, EndPoint endPoint) => new((int)(errno switch
    {
        Errno.ECONNREFUSED => SocketError.ConnectionRefused,
        Errno.ETIMEDOUT => SocketError.TimedOut,
        Errno.ENETUNREACH => SocketError.NetworkUnreachable,
        Errno.EHOSTUNREACH => SocketError.HostUnreachable,
        Errno.ECONNRESET => SocketError.ConnectionReset,
        Errno.EMFILE or Errno.ENFILE or Errno.ENOBUFS or Errno.ENOMEM => SocketError.TooManyOpenSockets,
        _ => SocketError.SocketError,
    }), $"connect to {endPoint} failed: {Errno.Describe(errno)}.");
}
