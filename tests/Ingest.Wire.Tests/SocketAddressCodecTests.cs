using System.Net;
using System.Net.Sockets;
using Ingest.Wire.Linux;

namespace Ingest.Wire.Tests;

/// <summary>
/// The one socket-address codec the transports and the load generator share, checked against the kernel itself: the
/// bytes it writes are the ones .NET's own sockets hand the kernel, and an address the kernel reports for a bound
/// socket reads back as the endpoint .NET reports for it.
/// </summary>
public sealed class SocketAddressCodecTests
{
    public static TheoryData<string> Addresses => ["127.0.0.1", "::1", "198.18.10.2"];

    [Theory]
    [MemberData(nameof(Addresses))]
    public void AnIpAddressIsWrittenAsDotNetHandsItToTheKernelAndReadsBack(string address)
    {
        var endPoint = new IPEndPoint(IPAddress.Parse(address), 8_443);
        var expected = endPoint.Serialize();
        Span<byte> buffer = stackalloc byte[SocketAddressCodec.MaxLength];

        var length = SocketAddressCodec.Write(endPoint, buffer);

        Assert.Equal(expected.Size, length);
        Assert.Equal(expected.Buffer.Span[..length].ToArray(), buffer[..length].ToArray());
        Assert.Equal(endPoint, SocketAddressCodec.Read(buffer, length));
    }

    [Theory]
    [InlineData(AddressFamily.InterNetwork, "127.0.0.1")]
    [InlineData(AddressFamily.InterNetworkV6, "::1")]
    public void ABoundSocketsAddressesReadAsDotNetReportsThem(AddressFamily family, string loopback)
    {
        using var listener = new Socket(family, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Parse(loopback), 0));
        listener.Listen();
        using var client = new Socket(family, SocketType.Stream, ProtocolType.Tcp);
        client.Connect(listener.LocalEndPoint!);

        Assert.Equal(listener.LocalEndPoint, SocketAddressCodec.LocalEndPoint((int)listener.Handle));
        Assert.Equal(client.LocalEndPoint, SocketAddressCodec.LocalEndPoint((int)client.Handle));
        Assert.Equal(listener.LocalEndPoint, SocketAddressCodec.RemoteEndPoint((int)client.Handle));
    }

    [Fact]
    public void AUnixSocketPathIsNulTerminatedAndReadsBack()
    {
        var path = Path.Combine(Path.GetTempPath(), $"ingest-wire-{Guid.NewGuid():N}.sock");
        try
        {
            using var listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            listener.Bind(new UnixDomainSocketEndPoint(path));
            Span<byte> buffer = stackalloc byte[SocketAddressCodec.MaxLength];

            var length = SocketAddressCodec.Write(new UnixDomainSocketEndPoint(path), buffer);

            Assert.Equal(2 + path.Length + 1, length);
            Assert.Equal(0, buffer[length - 1]);
            Assert.Equal(path, SocketAddressCodec.LocalEndPoint((int)listener.Handle)?.ToString());
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void AnEndPointWithoutALinuxAddressIsRefusedByName()
    {
        var error = Assert.Throws<NotSupportedException>(() => SocketAddressCodec.FamilyOf(new DnsEndPoint("example.test", 80)));
        Assert.Contains("DnsEndPoint", error.Message, StringComparison.Ordinal);
    }
}
