using System.Net;

namespace Ingest.Core.Forwarding;

/// <summary>
/// The event loops a forward's connections can belong to: the server transport's own (see
/// <see cref="ClientStrategy.LoopDirect"/>). The forwarding contract sees only this seam; the loops and their sockets are
/// the transport's business.
/// </summary>
public interface IForwardLoops
{
    /// <summary>How many loops can own connections; 0 when the server's transport has none.</summary>
    int Count { get; }

    /// <summary>The loop running the caller, or -1 on any other thread.</summary>
    int Current { get; }

    /// <summary>Opens a connection to <paramref name="endPoint"/> owned by loop <paramref name="loopIndex"/>.</summary>
    ValueTask<Stream> ConnectAsync(int loopIndex, EndPoint endPoint, CancellationToken cancellationToken);
}
