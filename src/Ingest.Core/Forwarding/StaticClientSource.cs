namespace Ingest.Core.Forwarding;

/// <summary>One client for the life of the process; its handler pools connections and recycles them after
/// PooledConnectionLifetime.</summary>
internal sealed class StaticClientSource(BackEndHandlerFactory handlers) : IBackEndClientSource, IDisposable
{
    private readonly HttpClient _client = new(handlers.Create(), disposeHandler: true) { Timeout = Timeout.InfiniteTimeSpan };

    public HttpClient Acquire() => _client;

    public void Release(HttpClient client)
    {
    }

    public void Dispose() => _client.Dispose();
}
