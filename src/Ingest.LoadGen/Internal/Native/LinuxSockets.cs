using System.Runtime.InteropServices;
using Ingest.Wire.Linux;

namespace Ingest.LoadGen.Internal.Native;

/// <summary>
/// The engine's event loops over the shared bindings (<see cref="LibC"/>): epoll for readiness, a timerfd for open-loop
/// send times finer than epoll's millisecond timeout, and send/recv/connect on the descriptor of a non-blocking
/// <see cref="System.Net.Sockets.Socket"/>. The socket object still creates, configures and closes the descriptor; the
/// calls here only avoid the runtime's own epoll thread (a thread hop per completion) and the exception on a
/// non-blocking connect. Failures of set-up calls throw; the hot calls return errno for the loop to branch on.
/// </summary>
/// <remarks>The load generator runs on any 64-bit Linux, so it reads <c>struct epoll_event</c> in the process's
/// architecture's layout rather than through <see cref="EpollEvent"/> (x86-64's): packed (12 bytes) on x64, naturally
/// aligned (16 bytes) elsewhere; <see cref="EpollEventSize"/> and <see cref="EpollDataOffset"/> handle that.</remarks>
internal static unsafe class LinuxSockets
{
    public static readonly int EpollEventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    public static readonly int EpollDataOffset = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 4 : 8;

    public static int CreateEpoll()
    {
        var fd = LibC.epoll_create1(LibC.EPOLL_CLOEXEC);
        return fd >= 0 ? fd : throw Failure("epoll_create1");
    }

    public static int CreateTimer()
    {
        var fd = LibC.timerfd_create(LibC.CLOCK_MONOTONIC, LibC.TFD_NONBLOCK | LibC.TFD_CLOEXEC);
        return fd >= 0 ? fd : throw Failure("timerfd_create");
    }

    /// <summary>Arms the timer to fire once, <paramref name="nanoseconds"/> from now (at least 1 ns).</summary>
    public static void ArmTimer(int timerFd, long nanoseconds)
    {
        nanoseconds = Math.Max(nanoseconds, 1);
        var spec = stackalloc long[4];
        spec[0] = 0;
        spec[1] = 0;
        spec[2] = nanoseconds / 1_000_000_000;
        spec[3] = nanoseconds % 1_000_000_000;
        if (LibC.timerfd_settime(timerFd, 0, spec, null) != 0)
        {
            throw Failure("timerfd_settime");
        }
    }

    /// <summary>Clears a fired timer so level-triggered epoll stops reporting it.</summary>
    public static void DrainTimer(int timerFd)
    {
        long expirations;
        _ = LibC.read(timerFd, &expirations, sizeof(long));
    }

    public static void Add(int epollFd, int fd, uint events, ulong data) => Control(epollFd, LibC.EPOLL_CTL_ADD, fd, events, data);

    public static void Modify(int epollFd, int fd, uint events, ulong data) => Control(epollFd, LibC.EPOLL_CTL_MOD, fd, events, data);

    public static void Remove(int epollFd, int fd)
    {
        var ev = stackalloc byte[16];
        _ = LibC.epoll_ctl(epollFd, LibC.EPOLL_CTL_DEL, fd, ev);
    }

    /// <summary>Waits for events into <paramref name="events"/>; returns their count, 0 on timeout or EINTR.</summary>
    public static int Wait(int epollFd, byte[] events, int timeoutMilliseconds)
    {
        fixed (byte* p = events)
        {
            var n = LibC.epoll_wait(epollFd, p, events.Length / EpollEventSize, timeoutMilliseconds);
            if (n >= 0)
            {
                return n;
            }

            var errno = LibC.LastErrno;
            return errno == Errno.EINTR ? 0 : throw Failure("epoll_wait", errno);
        }
    }

    public static uint EventsAt(byte[] events, int index) => BitConverter.ToUInt32(events, index * EpollEventSize);

    public static ulong DataAt(byte[] events, int index) => BitConverter.ToUInt64(events, (index * EpollEventSize) + EpollDataOffset);

    /// <summary>Starts a non-blocking connect. Returns 0 when connected at once, EINPROGRESS when the
    /// result comes later (the socket becomes writable), or the errno of the failure.</summary>
    public static int StartConnect(int fd, ReadOnlySpan<byte> socketAddress)
    {
        fixed (byte* p = socketAddress)
        {
            return LibC.connect(fd, p, socketAddress.Length) == 0 ? 0 : LibC.LastErrno;
        }
    }

    /// <summary>The pending error of a socket (SO_ERROR): 0 once a non-blocking connect succeeded.</summary>
    public static int PendingError(int fd)
    {
        int error;
        var length = sizeof(int);
        return LibC.getsockopt(fd, LibC.SOL_SOCKET, LibC.SO_ERROR, &error, &length) == 0 ? error : LibC.LastErrno;
    }

    /// <summary>Sends what the kernel takes now: the byte count, or minus the errno (-EAGAIN when full).</summary>
    public static int Send(int fd, ReadOnlySpan<byte> data)
    {
        fixed (byte* p = data)
        {
            var n = LibC.send(fd, p, data.Length, LibC.MSG_NOSIGNAL);
            return n >= 0 ? (int)n : -LibC.LastErrno;
        }
    }

    /// <summary>Receives what is there: the byte count, 0 at end of stream, or minus the errno.</summary>
    public static int Receive(int fd, Span<byte> buffer)
    {
        fixed (byte* p = buffer)
        {
            var n = LibC.recv(fd, p, buffer.Length, 0);
            return n >= 0 ? (int)n : -LibC.LastErrno;
        }
    }

    /// <summary>shutdown(SHUT_WR): the peer reads the end of the stream; 0, or minus the errno.</summary>
    public static int ShutdownSend(int fd) => LibC.shutdown(fd, LibC.SHUT_WR) == 0 ? 0 : -LibC.LastErrno;

    public static void Close(int fd) => _ = LibC.close(fd);

    private static void Control(int epollFd, int operation, int fd, uint events, ulong data)
    {
        var ev = stackalloc byte[16];
        *(uint*)ev = events;
        *(ulong*)(ev + EpollDataOffset) = data;
        if (LibC.epoll_ctl(epollFd, operation, fd, ev) != 0)
        {
            throw Failure("epoll_ctl");
        }
    }

    private static InvalidOperationException Failure(string call, int errno = -1)
    {
        errno = errno < 0 ? LibC.LastErrno : errno;
        return new InvalidOperationException($"{call} failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
    }
}
