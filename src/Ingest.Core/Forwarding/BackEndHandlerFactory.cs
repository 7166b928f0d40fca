using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>Builds the handler chain every client strategy forwards through — the forward's resilience handler over
/// a SocketsHttpHandler — so the strategies differ only in how they create and keep clients, never in how a
/// connection behaves or how a failure is retried, timed out or broken.</summary>
public sealed class BackEndHandlerFactory(IOptions<ForwardingOptions> options, BackEndResilience resilience)
{
    /// <summary>The whole chain, for a client built by hand (Static, PerRequest): the breakers it uses are the
    /// front-end's shared ones (<see cref="BackEndResilience"/>), however many chains are created.</summary>
    public HttpMessageHandler Create() => resilience.CreateHandler(CreatePrimary());

    /// <summary>The connection handler alone, for IHttpClientFactory, which chains the resilience handler itself.</summary>
    public SocketsHttpHandler CreatePrimary()
    {
        var o = options.Value;
        var handler = new SocketsHttpHandler
        {
            PooledConnectionLifetime = TimeSpan.FromSeconds(o.PooledConnectionLifetimeSeconds),
            MaxConnectionsPerServer = o.MaxConnectionsPerServer == 0 ? int.MaxValue : o.MaxConnectionsPerServer,
            // Loopback and private back-ends: a proxy picked up from the environment would only add a hop.
            UseProxy = false,
            UseCookies = false,
            AllowAutoRedirect = false,
            EnableMultipleHttp2Connections = true,
        };

        if (o.UnixSocketPath is { } path)
        {
            // Every connection goes to the socket, whatever the URL's host says (it is then only the Host header).
            var socketPath = new UnixDomainSocketEndPoint(path);
            handler.ConnectCallback = (_, cancellationToken) => ConnectUnixSocketAsync(socketPath, cancellationToken);
        }

        return handler;
    }

    /// <summary>Where a <see cref="ClientStrategy.LoopDirect"/> connection to back-end
    /// <paramref name="host"/>:<paramref name="port"/> goes: the Unix socket when one is configured (every forward goes
    /// there, whatever the URL's host says), else the host's first address.</summary>
    internal ValueTask<EndPoint> EndPointAsync(string host, int port, CancellationToken cancellationToken) =>
        options.Value.UnixSocketPath is { } path
            ? ValueTask.FromResult<EndPoint>(new UnixDomainSocketEndPoint(path))
            : ResolveAsync(new DnsEndPoint(host, port), cancellationToken);

    private static async ValueTask<EndPoint> ResolveAsync(DnsEndPoint endPoint, CancellationToken cancellationToken)
    {
        if (IPAddress.TryParse(endPoint.Host, out var address))
        {
            return new IPEndPoint(address, endPoint.Port);
        }

        var addresses = await Dns.GetHostAddressesAsync(endPoint.Host, cancellationToken);
        return addresses.Length == 0
            ? throw new SocketException((int)SocketError.HostNotFound)
            : new IPEndPoint(addresses[0], endPoint.Port);
    }

    private static async ValueTask<Stream> ConnectUnixSocketAsync(UnixDomainSocketEndPoint endPoint, CancellationToken cancellationToken)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
