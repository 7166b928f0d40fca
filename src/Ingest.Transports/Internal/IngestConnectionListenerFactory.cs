using System.Net;
using Ingest.Transports.Internal.Adapters;
using Ingest.Transports.Internal.Core;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>
/// The single <see cref="IConnectionListenerFactory"/> registered by UseIngestTransport. It creates the selected
/// transport lazily, on the first bind, so that resolving it (the start-up check does) has no side effects and
/// the decision (including a fallback to Sockets) is taken once, after options validation.
/// </summary>
internal sealed class IngestConnectionListenerFactory(IServiceProvider services)
    : IConnectionListenerFactory, IConnectionListenerFactorySelector, IAsyncDisposable
{
    private readonly Lock _gate = new();
    private IConnectionListenerFactory? _inner;

    public bool CanBind(EndPoint endpoint) =>
        Inner is IConnectionListenerFactorySelector selector ? selector.CanBind(endpoint) : endpoint is IPEndPoint;

    public ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default) =>
        Inner.BindAsync(endpoint, cancellationToken);

    public async ValueTask DisposeAsync()
    {
        IConnectionListenerFactory? inner;
        lock (_gate)
        {
            inner = _inner;
        }

        if (inner is IAsyncDisposable disposable)
        {
            await disposable.DisposeAsync();
        }
    }

    private IConnectionListenerFactory Inner
    {
        get
        {
            lock (_gate)
            {
                return _inner ??= Create();
            }
        }
    }

    private IConnectionListenerFactory Create()
    {
        var info = services.GetRequiredService<TransportSelector>().Info;
        var loggerFactory = services.GetRequiredService<ILoggerFactory>();
        if (info.Effective == TransportKind.Sockets)
        {
            return new SocketTransportFactory(services.GetRequiredService<IOptions<SocketTransportOptions>>(), loggerFactory);
        }

        if (TransportAdapters.IsAdapted(info.Effective))
        {
            return TransportAdapters.Required(info.Effective).CreateFactory(services);
        }

        return new NativeTransportFactory(
            TransportBackends.Create(info.Effective, services),
            TransportBackends.Settings(info.Effective, services),
            services.GetService<IMemoryPoolFactory<byte>>(),
            loggerFactory.CreateLogger("Ingest.Transports"),
            services.GetRequiredService<LoopConnections>());
    }
}
