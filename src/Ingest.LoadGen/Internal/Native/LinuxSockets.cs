using System.Runtime.InteropServices;

namespace Ingest.LoadGen.Internal.Native;

/// <summary>
/// The few Linux system calls the engine's event loops need: epoll for readiness, a timerfd for open-loop
/// send times finer than epoll's millisecond timeout, and send/recv/connect on the descriptor of a
/// non-blocking <see cref="System.Net.Sockets.Socket"/>. The socket object still creates, configures and
/// closes the descriptor; the calls here only avoid the runtime's own epoll thread (a thread hop per
/// completion) and the exception on a non-blocking connect.
/// </summary>
/// <remarks>Constants are Linux's generic ABI values, the same on x64 and arm64 (man 2 epoll_ctl,
/// timerfd_create, send, errno.h). Only <c>struct epoll_event</c> differs: packed (12 bytes) on x64,
/// naturally aligned (16 bytes) elsewhere; <see cref="EpollEventSize"/> and <see cref="EpollDataOffset"/>
/// handle that.</remarks>
internal static unsafe partial class LinuxSockets
{
    public const int EAGAIN = 11;
    public const int EINTR = 4;
    public const int EINPROGRESS = 115;

    public const uint EPOLLIN = 0x001;
    public const uint EPOLLOUT = 0x004;
    public const uint EPOLLERR = 0x008;
    public const uint EPOLLHUP = 0x010;
    public const uint EPOLLRDHUP = 0x2000;

    private const int EpollCtlAdd = 1;
    private const int EpollCtlDel = 2;
    private const int EpollCtlMod = 3;
    private const int CloseOnExec = 0x80000;
    private const int NonBlock = 0x800;
    private const int ClockMonotonic = 1;
    private const int MsgNoSignal = 0x4000;
    private const int SolSocket = 1;
    private const int SoError = 4;
    private const int ShutWrite = 1;

    public static readonly int EpollEventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    public static readonly int EpollDataOffset = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 4 : 8;

    public static int CreateEpoll()
    {
        var fd = epoll_create1(CloseOnExec);
        return fd >= 0 ? fd : throw Failure("epoll_create1");
    }

    public static int CreateTimer()
    {
        var fd = timerfd_create(ClockMonotonic, NonBlock | CloseOnExec);
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
        if (timerfd_settime(timerFd, 0, spec, null) != 0)
        {
            throw Failure("timerfd_settime");
        }
    }

    /// <summary>Clears a fired timer so level-triggered epoll stops reporting it.</summary>
    public static void DrainTimer(int timerFd)
    {
        long expirations;
        _ = read(timerFd, &expirations, sizeof(long));
    }

    public static void Add(int epollFd, int fd, uint events, ulong data) => Control(epollFd, EpollCtlAdd, fd, events, data);

    public static void Modify(int epollFd, int fd, uint events, ulong data) => Control(epollFd, EpollCtlMod, fd, events, data);

    public static void Remove(int epollFd, int fd)
    {
        var ev = stackalloc byte[16];
        _ = epoll_ctl(epollFd, EpollCtlDel, fd, ev);
    }

    /// <summary>Waits for events into <paramref name="events"/>; returns their count, 0 on timeout or EINTR.</summary>
    public static int Wait(int epollFd, byte[] events, int timeoutMilliseconds)
    {
        fixed (byte* p = events)
        {
            var n = epoll_wait(epollFd, p, events.Length / EpollEventSize, timeoutMilliseconds);
            if (n >= 0)
            {
                return n;
            }

            var errno = Marshal.GetLastPInvokeError();
            return errno == EINTR ? 0 : throw Failure("epoll_wait", errno);
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
            return connect(fd, p, socketAddress.Length) == 0 ? 0 : Marshal.GetLastPInvokeError();
        }
    }

    /// <summary>The pending error of a socket (SO_ERROR): 0 once a non-blocking connect succeeded.</summary>
    public static int PendingError(int fd)
    {
        int error;
        var length = sizeof(int);
        return getsockopt(fd, SolSocket, SoError, &error, &length) == 0 ? error : Marshal.GetLastPInvokeError();
    }

    /// <summary>Sends what the kernel takes now: the byte count, or minus the errno (-EAGAIN when full).</summary>
    public static int Send(int fd, ReadOnlySpan<byte> data)
    {
        fixed (byte* p = data)
        {
            var n = send(fd, p, data.Length, MsgNoSignal);
            return n >= 0 ? (int)n : -Marshal.GetLastPInvokeError();
        }
    }

    /// <summary>Receives what is there: the byte count, 0 at end of stream, or minus the errno.</summary>
    public static int Receive(int fd, Span<byte> buffer)
    {
        fixed (byte* p = buffer)
        {
            var n = recv(fd, p, buffer.Length, 0);
            return n >= 0 ? (int)n : -Marshal.GetLastPInvokeError();
        }
    }

    /// <summary>shutdown(SHUT_WR): the peer reads the end of the stream; 0, or minus the errno.</summary>
    public static int ShutdownSend(int fd) => shutdown(fd, ShutWrite) == 0 ? 0 : -Marshal.GetLastPInvokeError();

    public static void Close(int fd) => _ = close(fd);

    private static void Control(int epollFd, int operation, int fd, uint events, ulong data)
    {
        var ev = stackalloc byte[16];
        *(uint*)ev = events;
        *(ulong*)(ev + EpollDataOffset) = data;
        if (epoll_ctl(epollFd, operation, fd, ev) != 0)
        {
            throw Failure("epoll_ctl");
        }
    }

    private static InvalidOperationException Failure(string call, int errno = -1)
    {
        errno = errno < 0 ? Marshal.GetLastPInvokeError() : errno;
        return new InvalidOperationException($"{call} failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_create1(int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_ctl(int epfd, int op, int fd, byte* ev);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_wait(int epfd, byte* events, int maxEvents, int timeout);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int timerfd_create(int clockId, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int timerfd_settime(int fd, int flags, long* newValue, long* oldValue);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint read(int fd, void* buffer, nint count);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int close(int fd);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int connect(int fd, byte* address, int addressLength);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int getsockopt(int fd, int level, int name, void* value, int* length);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint send(int fd, byte* buffer, nint length, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int shutdown(int fd, int how);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint recv(int fd, byte* buffer, nint length, int flags);
}
