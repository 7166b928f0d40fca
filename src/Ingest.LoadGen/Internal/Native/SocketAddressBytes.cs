using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace Ingest.LoadGen.Internal.Native;

/// <summary>Linux <c>sockaddr_in</c> / <c>sockaddr_in6</c> for <see cref="LinuxSockets.StartConnect"/>,
/// built once per run (family in host order, port in network order; man 7 ip, man 7 ipv6).</summary>
internal static class SocketAddressBytes
{
    private const ushort AfInet = 2;
    private const ushort AfInet6 = 10;

    public static byte[] From(IPEndPoint endPoint)
    {
        ArgumentNullException.ThrowIfNull(endPoint);
        if (endPoint.AddressFamily == AddressFamily.InterNetwork)
        {
            var bytes = new byte[16];
            BitConverter.TryWriteBytes(bytes.AsSpan(0, 2), AfInet);
            BinaryPrimitives.WriteUInt16BigEndian(bytes.AsSpan(2, 2), (ushort)endPoint.Port);
            endPoint.Address.TryWriteBytes(bytes.AsSpan(4, 4), out _);
            return bytes;
        }

        var v6 = new byte[28];
        BitConverter.TryWriteBytes(v6.AsSpan(0, 2), AfInet6);
        BinaryPrimitives.WriteUInt16BigEndian(v6.AsSpan(2, 2), (ushort)endPoint.Port);
        endPoint.Address.TryWriteBytes(v6.AsSpan(8, 16), out _);
        BitConverter.TryWriteBytes(v6.AsSpan(24, 4), (uint)endPoint.Address.ScopeId);
        return v6;
    }
}
