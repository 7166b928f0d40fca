using System.Net;
using System.Net.Sockets;

namespace Ingest.Transports.Tests;

/// <summary>
/// One server per transport suite, shared by its tests: IPv4 and IPv6 loopback on port 0 and a Unix socket.
/// </summary>
public abstract class TransportServerFixture(TransportVariant variant) : IAsyncLifetime
{
    private LoopbackServer? _server;

    public TransportVariant Variant { get; } = variant;

    public LoopbackServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public string UnixSocketPath { get; } = Path.Combine(Path.GetTempPath(), $"ingest-{Guid.NewGuid():N}.sock");

    public IPEndPoint IPv4 => Server.EndPoint(IPAddress.Loopback);

    public IPEndPoint IPv6 => Server.EndPoint(IPAddress.IPv6Loopback);

    public UnixDomainSocketEndPoint Unix => new(UnixSocketPath);

    public HttpClient Client { get; } = new(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.FromMinutes(1) })
    {
        Timeout = TimeSpan.FromSeconds(60),
    };

    public Uri Url(string pathAndQuery) => new(Server.Address("127.0.0.1"), pathAndQuery);

    public async Task InitializeAsync()
    {
        // A suite whose transport this build lacks is skipped test by test; starting it would only fail.
        if (TransportKinds.MissingReason(Variant.Kind) is null)
        {
            _server = await LoopbackServer.StartAsync(Variant, ["http://127.0.0.1:0", "http://[::1]:0", $"http://unix:{UnixSocketPath}"]);
        }
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }

        File.Delete(UnixSocketPath);
    }
}
