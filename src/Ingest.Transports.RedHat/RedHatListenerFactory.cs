using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.RedHat;

/// <summary>
/// The package's factory, plus what it lacks on .NET 8+: <see cref="IConnectionListenerFactorySelector"/>, so Kestrel
/// knows it binds IP, Unix-socket and file-handle endpoints (the package's BindAsync handles those three).
/// </summary>
internal sealed class RedHatListenerFactory(IConnectionListenerFactory inner) : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    public bool CanBind(EndPoint endpoint) => endpoint is IPEndPoint or UnixDomainSocketEndPoint or FileHandleEndPoint;

    public ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default) =>
        inner.BindAsync(endpoint, cancellationToken);
}
