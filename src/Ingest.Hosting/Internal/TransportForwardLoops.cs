using System.Net;
using Ingest.Core.Forwarding;
using Ingest.Transports;

namespace Ingest.Hosting.Internal;

/// <summary>Where the forwarding contract meets the transport: <see cref="ClientStrategy.LoopDirect"/>'s connections come
/// from the Kestrel transport's own loops.</summary>
internal sealed class TransportForwardLoops(LoopConnections connections) : IForwardLoops
{
    public int Count => connections.Count;

    public int Current => connections.Current;

    public ValueTask<Stream> ConnectAsync(int loopIndex, EndPoint endPoint, CancellationToken cancellationToken) =>
        connections.ConnectAsync(loopIndex, endPoint, cancellationToken);
}
