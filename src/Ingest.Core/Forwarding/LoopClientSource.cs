namespace Ingest.Core.Forwarding;

/// <summary>
/// <see cref="ClientStrategy.Loop"/>: one client per transport loop, each over the same handler chain as the other
/// strategies but with connections its loop owns. A forward takes the client of the loop it runs on, so its request
/// and response stay on that thread; from any other thread it takes the clients in turn.
/// </summary>
internal sealed class LoopClientSource : IBackEndClientSource, IDisposable
{
    private readonly HttpClient[] _clients;
    private readonly IForwardLoops _loops;
    private uint _next;

    public LoopClientSource(BackEndHandlerFactory handlers, IForwardLoops loops)
    {
        if (loops.Count == 0)
        {
            throw new InvalidOperationException(ForwardingOptionsValidator.LoopNeedsOwnTransport(ClientStrategy.Loop));
        }

        _loops = loops;
        _clients = new HttpClient[loops.Count];
        for (var i = 0; i < _clients.Length; i++)
        {
            var loop = i;
            _clients[i] = new HttpClient(handlers.Create((endPoint, cancellationToken) => loops.ConnectAsync(loop, endPoint, cancellationToken)), disposeHandler: true)
            {
                Timeout = Timeout.InfiniteTimeSpan,
            };
        }
    }

    public ClientStrategy Strategy => ClientStrategy.Loop;

    public HttpClient Acquire()
    {
        var loop = _loops.Current;
        return _clients[loop >= 0 ? loop : (int)(Interlocked.Increment(ref _next) % (uint)_clients.Length)];
    }

    public void Release(HttpClient client)
    {
    }

    public void Dispose()
    {
        foreach (var client in _clients)
        {
            client.Dispose();
        }
    }
}
