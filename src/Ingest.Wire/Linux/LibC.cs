using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;

namespace Ingest.Wire.Linux;

/// <summary>
/// The libc entry points the transports, the load generator, the hosting layer and the lab call: one binding per call,
/// source-generated (<c>LibraryImport</c>: no marshalling stubs built at run time, so Native AOT and trimming keep them).
/// Every import sets <c>SetLastError</c> because the callers branch on errno (EAGAIN, EINTR, EADDRINUSE, ...). Syscalls
/// without a libc wrapper go through <see cref="Syscall"/>. Constants are Linux's generic values, the same on x86-64 and
/// arm64, except the syscall numbers, which say so.
/// </summary>
[SuppressMessage("Naming", "CA1707:Identifiers should not contain underscores", Justification = "The kernel's and libc's own names, so a call reads as its man page does.")]
public static unsafe partial class LibC
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
    public const int O_RDWR = 2;
    public const int O_NONBLOCK = 0x800;
    public const int O_CLOEXEC = 0x80000;

    // poll
    public const short POLLIN = 0x001;
    public const short POLLOUT = 0x004;

    // epoll
    public const int EPOLL_CLOEXEC = 0x80000;
    public const int EPOLL_CTL_ADD = 1;
    public const int EPOLL_CTL_DEL = 2;
    public const int EPOLL_CTL_MOD = 3;
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

    // timerfd (its flags are O_NONBLOCK and O_CLOEXEC, like eventfd's)
    public const int CLOCK_MONOTONIC = 1;
    public const int TFD_CLOEXEC = 0x80000;
    public const int TFD_NONBLOCK = 0x800;

    // mmap, madvise
    public const int PROT_READ = 1;
    public const int PROT_WRITE = 2;
    public const int MAP_SHARED = 1;
    public const int MAP_POPULATE = 0x8000;
    public const int MADV_PAGEOUT = 21; // Linux 5.4

    public const int SIGTERM = 15;

    // Syscall numbers for Syscall: x86-64 ones (arch/x86/entry/syscalls/syscall_64.tbl); their callers check the architecture.
    public const long SYS_io_setup = 206;
    public const long SYS_io_destroy = 207;
    public const long SYS_io_getevents = 208;
    public const long SYS_io_submit = 209;
    public const long SYS_io_uring_setup = 425;
    public const long SYS_io_uring_enter = 426;
    public const long SYS_io_uring_register = 427;

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
    public static partial nint send(int fd, byte* buffer, nint length, int flags);

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

    /// <summary><paramref name="ev"/> (and <see cref="epoll_wait"/>'s array) is the kernel's <c>struct epoll_event</c>,
    /// whose layout depends on the architecture: see <see cref="EpollEvent"/>.</summary>
    [LibraryImport(Library, SetLastError = true)]
    public static partial int epoll_ctl(int epfd, int op, int fd, void* ev);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int epoll_wait(int epfd, void* events, int maxEvents, int timeout);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int eventfd(uint initialValue, int flags);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int timerfd_create(int clockId, int flags);

    /// <summary><paramref name="newValue"/> and <paramref name="oldValue"/> are <c>struct itimerspec</c>: four 64-bit
    /// integers (interval seconds and nanoseconds, then value seconds and nanoseconds).</summary>
    [LibraryImport(Library, SetLastError = true)]
    public static partial int timerfd_settime(int fd, int flags, long* newValue, long* oldValue);

    [LibraryImport(Library, SetLastError = true)]
    public static partial void* mmap(void* address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int munmap(void* address, nuint length);

    /// <summary>The address is a number here: callers advise ranges they read from /proc/self/maps and never dereference.</summary>
    [LibraryImport(Library, SetLastError = true)]
    public static partial int madvise(nint address, nuint length, int advice);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int unlink(byte* path);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int open(byte* path, int flags);

    /// <summary>Only with requests whose argument is a pointer (the lab's TUN device: <c>TUNSETIFF</c> and its <c>struct ifreq</c>).</summary>
    [LibraryImport(Library, SetLastError = true)]
    public static partial int ioctl(int fd, nuint request, void* argument);

    [LibraryImport(Library, SetLastError = true)]
    public static partial int kill(int pid, int signal);

    /// <summary>The generic syscall entry: only integer arguments, which the x86-64 and arm64 calling conventions pass in registers for variadic functions too.</summary>
    [LibraryImport(Library, EntryPoint = "syscall", SetLastError = true)]
    public static partial long Syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6);

    /// <summary>errno of the last call made with <c>SetLastError</c>.</summary>
    public static int LastErrno => Marshal.GetLastPInvokeError();
}
