namespace Ingest.Core.Forwarding;

/// <summary>How the front-end forwards to its back-ends. Bound from the <c>Forwarding</c> section and
/// validated at start-up by <see cref="ForwardingOptionsValidator"/>.</summary>
public sealed class ForwardingOptions
{
    public const string SectionName = "Forwarding";

    /// <summary>Back-end base URLs (<c>http://host:port</c>); every event goes to each of them, as the original
    /// forwarded to each endpoint in its list. No default: it must be configured.</summary>
    public string[] BackEnds { get; set; } = [];

    /// <summary>Connect to the back-end over this Unix domain socket instead of TCP (the URL's host is then
    /// only the Host header). Defaults to null: TCP.</summary>
    public string? UnixSocketPath { get; set; }

    /// <summary>Defaults to <see cref="ClientStrategy.Static"/>.</summary>
    public ClientStrategy ClientStrategy { get; set; } = ClientStrategy.Static;

    /// <summary>Defaults to <see cref="ForwardingMode.PerEvent"/>.</summary>
    public ForwardingMode Mode { get; set; } = ForwardingMode.PerEvent;

    /// <summary>Defaults to <see cref="BackEndProtocol.Http11"/>.</summary>
    public BackEndProtocol Protocol { get; set; } = BackEndProtocol.Http11;

    /// <summary>How long a forward may take before the caller gets 504. Defaults to 5,000 ms.</summary>
    public int TimeoutMilliseconds { get; set; } = 5_000;

    /// <summary>Connections per back-end (SocketsHttpHandler.MaxConnectionsPerServer); 0 means unlimited,
    /// the handler's own default. Defaults to 0.</summary>
    public int MaxConnectionsPerServer { get; set; }

    /// <summary>How long a pooled connection lives before it is replaced, so DNS changes are seen
    /// (Static and PerRequest). Defaults to 120 s.</summary>
    public int PooledConnectionLifetimeSeconds { get; set; } = 120;

    /// <summary>How long IHttpClientFactory keeps a handler before rotating it (Factory). Defaults to 120 s,
    /// the factory's own default.</summary>
    public int HandlerLifetimeSeconds { get; set; } = 120;

    /// <summary>Batched mode: most events in one back-end call. Defaults to 256.</summary>
    public int BatchMaxEvents { get; set; } = 256;

    /// <summary>Batched mode: how long a batch waits for more events after its first one. 0 sends whatever
    /// has gathered while earlier batches were in flight. Defaults to 1 ms.</summary>
    public int BatchWindowMilliseconds { get; set; } = 1;

    /// <summary>Batched mode: back-end calls in flight at once. Defaults to 8.</summary>
    public int MaxInFlightBatches { get; set; } = 8;

    /// <summary>Batched mode: events waiting for a batch before new requests are shed with 503. Defaults to 10,000.</summary>
    public int BatchQueueCapacity { get; set; } = 10_000;
}
