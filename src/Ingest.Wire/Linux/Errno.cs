namespace Ingest.Wire.Linux;

/// <summary>The Linux errno values the transports and the load generator branch on (asm-generic/errno*.h: the same on
/// x86-64 and arm64).</summary>
public static class Errno
{
    public const int EPERM = 1;
    public const int ENOENT = 2;
    public const int EINTR = 4;
    public const int EBADF = 9;
    public const int EAGAIN = 11;
    public const int ENOMEM = 12;
    public const int EACCES = 13;
    public const int EINVAL = 22;
    public const int ENFILE = 23;
    public const int EMFILE = 24;
    public const int EPIPE = 32;
    public const int ENOSYS = 38;
    public const int EOPNOTSUPP = 95;
    public const int EADDRINUSE = 98;
    public const int EADDRNOTAVAIL = 99;
    public const int ECONNABORTED = 103;
    public const int ECONNRESET = 104;
    public const int ENOBUFS = 105;
    public const int ENOTCONN = 107;
    public const int ETIMEDOUT = 110;
    public const int EINPROGRESS = 115;
    public const int ENETUNREACH = 101;
    public const int ECONNREFUSED = 111;
    public const int EHOSTUNREACH = 113;
    public const int ECANCELED = 125;

    /// <summary>A short symbolic name for messages ("EADDRINUSE (98)").</summary>
    public static string Describe(int errno) => errno switch
    {
        EPERM => "EPERM (1)",
        ENOENT => "ENOENT (2)",
        EINTR => "EINTR (4)",
        EBADF => "EBADF (9)",
        EAGAIN => "EAGAIN (11)",
        ENOMEM => "ENOMEM (12)",
        EACCES => "EACCES (13)",
        EINVAL => "EINVAL (22)",
        ENFILE => "ENFILE (23)",
        EMFILE => "EMFILE (24)",
        EPIPE => "EPIPE (32)",
        ENOSYS => "ENOSYS (38)",
        EOPNOTSUPP => "EOPNOTSUPP (95)",
        EADDRINUSE => "EADDRINUSE (98)",
        EADDRNOTAVAIL => "EADDRNOTAVAIL (99)",
        ECONNABORTED => "ECONNABORTED (103)",
        ECONNRESET => "ECONNRESET (104)",
        ENOBUFS => "ENOBUFS (105)",
        ENOTCONN => "ENOTCONN (107)",
        ETIMEDOUT => "ETIMEDOUT (110)",
        EINPROGRESS => "EINPROGRESS (115)",
        ENETUNREACH => "ENETUNREACH (101)",
        ECONNREFUSED => "ECONNREFUSED (111)",
        EHOSTUNREACH => "EHOSTUNREACH (113)",
        ECANCELED => "ECANCELED (125)",
        _ => $"errno {errno}",
    };
}
