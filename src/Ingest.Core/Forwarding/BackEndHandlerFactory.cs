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
            var endpoint = new UnixDomainSocketEndPoint(path);
            handler.ConnectCallback = async (_, cancellationToken) =>
            {
                var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                try
                {
                    await socket.ConnectAsync(endpoint, cancellationToken);
                    return new NetworkStream(socket, ownsSocket: true);
                }
                catch
                {
                    socket.Dispose();
                    throw;
                }
            };
        }

        return handler;
    }
}
