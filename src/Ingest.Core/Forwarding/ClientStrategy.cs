namespace Ingest.Core.Forwarding;

/// <summary>How the front-end sends its forwards; chosen by <c>Forwarding:ClientStrategy</c> and turned into the
/// forward's sender by <see cref="ClientStrategies.CreateSender"/>.</summary>
public enum ClientStrategy
{
    /// <summary>A new HttpClient (and connection pool) per forward, disposed after it: the classic
    /// anti-pattern, kept to show its cost in connections, TIME_WAIT sockets and latency.</summary>
    PerRequest,

    /// <summary><see cref="PerRequest"/>, and the request thread blocks on <c>.Result</c> as the 2016 original did.</summary>
    PerRequestBlocking,

    /// <summary>One shared HttpClient over a SocketsHttpHandler with PooledConnectionLifetime.</summary>
    Static,

    /// <summary>A typed client from IHttpClientFactory, which pools and rotates handlers.</summary>
    Factory,

    /// <summary>Connections the transport's loops own (LinuxEpoll or IoUring transport), without HttpClient: the
    /// front-end's own HTTP/1.1 client writes each forward into a connection of the loop it runs on and reads the
    /// back-end's answer off it (status, framing, Retry-After), so with the application inline a request never leaves
    /// its thread; the same resilience (timeouts, retries, shared breaker) surrounds every attempt. HTTP/1.1 only.</summary>
    LoopDirect,
}
