namespace Ingest.Core.Forwarding;

/// <summary>How the front-end gets the HttpClient it forwards with; chosen by <c>Forwarding:ClientStrategy</c>.</summary>
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

    /// <summary>One client per transport loop, whose connections that loop owns (LinuxEpoll or IoUring transport):
    /// a request forwarded from a loop thread goes out and comes back on that thread, with no hop through the
    /// runtime's socket engine or the thread pool.</summary>
    Loop,

    /// <summary><see cref="Loop"/>'s connections without HttpClient: the front-end's own HTTP/1.1 client writes each
    /// forward into a loop-owned connection and reads the back-end's answer off it (status, framing, Retry-After),
    /// with the same resilience pipeline (timeouts, retries, shared breaker) around every attempt. HTTP/1.1 only.</summary>
    LoopDirect,
}

/// <summary>What a <see cref="ClientStrategy"/> needs from its host.</summary>
public static class ClientStrategies
{
    /// <summary>Whether the strategy forwards over connections the server transport's loops own.</summary>
    public static bool NeedsLoops(this ClientStrategy strategy) => strategy is ClientStrategy.Loop or ClientStrategy.LoopDirect;
}
