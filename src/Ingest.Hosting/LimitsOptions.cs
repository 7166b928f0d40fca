namespace Ingest.Hosting;

/// <summary>
/// The limits that keep a service standing under hostile or excessive load. Bound from the <c>Limits</c>
/// section of both services; each violation is a clear 4xx (Kestrel's own for header limits and timeouts).
/// </summary>
public sealed class LimitsOptions
{
    public const string SectionName = "Limits";

    /// <summary>Total size of a request's headers; beyond it Kestrel answers 431. Defaults to 32,768 bytes (Kestrel's default).</summary>
    public int MaxRequestHeadersTotalSize { get; set; } = 32 * 1024;

    /// <summary>Headers per request; beyond it Kestrel answers 431. Defaults to 100 (Kestrel's default).</summary>
    public int MaxRequestHeaderCount { get; set; } = 100;

    /// <summary>Slowest body upload tolerated after the grace period; slower clients get 408 (slowloris). Defaults to 240 bytes/s.</summary>
    public int MinRequestBodyBytesPerSecond { get; set; } = 240;

    /// <summary>Grace before <see cref="MinRequestBodyBytesPerSecond"/> applies. Defaults to 5 s.</summary>
    public int MinRequestBodyGraceSeconds { get; set; } = 5;

    /// <summary>Time a client has to send all its request headers; a trickling client is cut off. Defaults to 10 s.</summary>
    public int RequestHeadersTimeoutSeconds { get; set; } = 10;

    /// <summary>Idle keep-alive connections are closed after this. Defaults to 130 s (Kestrel's default).</summary>
    public int KeepAliveTimeoutSeconds { get; set; } = 130;

    /// <summary>Open connections at most; 0 = unlimited. Defaults to 0.</summary>
    public int MaxConcurrentConnections { get; set; }

    /// <summary>Requests per second one connection may send; more are answered 429 with Retry-After; 0 = no limit. Defaults to 0.</summary>
    public int RequestsPerSecondPerConnection { get; set; }

    /// <summary>Deepest JSON nesting read; deeper documents are 400. Defaults to 64.</summary>
    public int MaxJsonDepth { get; set; } = Core.Serialization.SerializerLimits.MaxDepth;

    /// <summary>On SIGTERM: how long in-flight requests may take to finish before the service exits anyway. Defaults to 30 s.</summary>
    public int ShutdownTimeoutSeconds { get; set; } = 30;
}
