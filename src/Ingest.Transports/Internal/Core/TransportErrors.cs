using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.Internal.Core;

/// <summary>Maps errno values to the exceptions Kestrel understands.</summary>
internal static class TransportErrors
{
    /// <summary>ConnectionResetException for "the peer went away", IOException for anything else.</summary>
    public static Exception FromErrno(int errno, string operation) => errno switch
    {
        Errno.ECONNRESET or Errno.EPIPE or Errno.ECONNABORTED or Errno.ENOTCONN or Errno.ETIMEDOUT =>
            new ConnectionResetException($"{operation} failed: {Errno.Describe(errno)}."),
        _ => new IOException($"{operation} failed: {Errno.Describe(errno)}."),
    };

    /// <summary>Whether an errno means the peer reset or closed the connection (expected, not logged as an error).</summary>
    public static bool IsReset(Exception error) => error is ConnectionResetException;
}
