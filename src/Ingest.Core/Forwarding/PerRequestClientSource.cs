namespace Ingest.Core.Forwarding;

/// <summary>A new client and handler per forward, disposed afterwards: every forward opens (and leaves in
/// TIME_WAIT) its own connection. The anti-pattern, on purpose.</summary>
internal sealed class PerRequestClientSource(BackEndHandlerFactory handlers) : IBackEndClientSource
{
    public HttpClient Acquire() => new(handlers.Create(), disposeHandler: true) { Timeout = Timeout.InfiniteTimeSpan };

    public void Release(HttpClient client) => client.Dispose();
}
