using System.Runtime.InteropServices;

namespace Ingest.Transports.Internal.Native;

/// <summary>
/// The libc entry points the custom transports call. Every import sets <c>SetLastError</c> because the callers
/// branch on errno (EAGAIN, EINTR, EADDRINUSE, ...). Syscalls without a libc wrapper go through
/// <see cref="Syscall"/>.
/// </summary>
internal static unsafe partial class LibC
{
    private const string Library = "libc";

    // Address families, socket types and flags (Linux values).
    public const int AF_UNIX = 1;
    public const int AF_INET = 2;
    public const int AF_INET6 = 10;
    public const int SOCK_STREAM = 1;
    public const int SOCK_NONBLOCK = 0x800;
    public const int SOCK_CLOEXEC = 0x80000;
    public const int SOL_SOCKET = 1;
    public const int SO_REUSEADDR = 2;
    public const int SO_ERROR = 4;
    public const int SO_REUSEPORT = 15;
    public const int IPPROTO_TCP = 6;
    public const int IPPROTO_IPV6 = 41;
    public const int TCP_NODELAY = 1;
    public const int IPV6_V6ONLY = 26;
    public const int SHUT_RD = 0;
    public const int SHUT_WR = 1;
    public const int SHUT_RDWR = 2;
    public const int MSG_NOSIGNAL = 0x4000;
    public const int F_GETFL = 3;
    public const int F_SETFL = 4;
    public const int O_NONBLOCK = 0x800;

    // epoll
    public const short POLLOUT = 0x004;

    public const int EPOLL_CLOEXEC = 0x80000;
    public const int EPOLL_CTL_ADD = 1;
    public const int EPOLL_CTL_DEL = 2;
    public const uint EPOLLIN = 0x001;
    public const uint EPOLLOUT = 0x004;
    public const uint EPOLLERR = 0x008;
    public const uint EPOLLHUP = 0x010;
    public const uint EPOLLRDHUP = 0x2000;
    public const uint EPOLLEXCLUSIVE = 1u << 28;
    public const uint EPOLLET = 1u << 31;

    // eventfd
    public const int EFD_CLOEXEC = 0x80000;
    public const int EFD_NONBLOCK = 0x800;

    // mmap
    public const int PROT_READ = 1;
    public const int PROT_WRITE = 2;
    public const int MAP_SHARED = 1;
    public const int MAP_POPULATE = 0x8000;

    [LibraryImport(Library, SetLastError = true)]
    public static partial int socket(int domain, int type, int protocol);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int bind(int fd, byte* address, int addressLength);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int listen(int fd, int backlog);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int connect(int fd, byte* address, int addressLength);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int poll(PollDescriptor* descriptors, nuint count, int timeoutMilliseconds);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int getsockopt(int fd, int level, int name, int* value, int* valueLength);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int accept4(int fd, byte* address, int* addressLength, int flags);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int setsockopt(int fd, int level, int name, int* value, int valueLength);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int getsockname(int fd, byte* address, int* addressLength);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int getpeername(int fd, byte* address, int* addressLength);

    [LibraryImport(Library, SetLastError = true)]
    public static partial nint recv(int fd, byte* buffer, nint length, int flags);

    [LibraryImport(Library, SetLastError = true)]
    public static partial nint sendmsg(int fd, MessageHeader* message, int flags);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int shutdown(int fd, int how);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int close(int fd);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int dup(int fd);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int fcntl(int fd, int command, int argument);

    [LibraryImport(Library, SetLastError = true)]
    public static partial nint read(int fd, void* buffer, nint count);

    [LibraryImport(Library, SetLastError = true)]
    public static partial nint write(int fd, void* buffer, nint count);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int epoll_create1(int flags);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int epoll_ctl(int epfd, int op, int fd, EpollEvent* ev);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int epoll_wait(int epfd, EpollEvent* events, int maxEvents, int timeout);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int eventfd(uint initialValue, int flags);

    [LibraryImport(Library, SetLastError = true)]
    public static partial void* mmap(void* address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int munmap(void* address, nuint length);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int unlink(byte* path);

    /// <summary>The generic syscall entry: only integer arguments, which the x86-64 and arm64 calling conventions pass in registers for variadic functions too.</summary>
    [LibraryImport(Library, EntryPoint = "syscall", SetLastError = true)]
    public static partial long Syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6);

    /// <summary>errno of the last call made with <c>SetLastError</c>.</summary>
    public static int LastErrno => Marshal.GetLastPInvokeError();
}
