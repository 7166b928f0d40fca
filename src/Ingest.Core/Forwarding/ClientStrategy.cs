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
}
