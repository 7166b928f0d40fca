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

    /// <summary>How long a forward may take, retries included, before the caller gets 504. Defaults to 5,000 ms.</summary>
    public int TimeoutMilliseconds { get; set; } = 5_000;

    /// <summary>How long one attempt may take before it is abandoned (and retried while time remains). Defaults to 2,000 ms.</summary>
    public int AttemptTimeoutMilliseconds { get; set; } = 2_000;

    /// <summary>Retries after a failed attempt (refused connection, reset, attempt timeout, back-end 408, 429 or 5xx: the
    /// transient failures of Microsoft.Extensions.Http.Resilience). Safe: every forward carries an Idempotency-Key and
    /// the back-end persists a key once. A back-end's Retry-After is passed to the caller, not waited for. 0 turns
    /// retries off. Defaults to 2.</summary>
    public int RetryAttempts { get; set; } = 2;

    /// <summary>First retry delay; later ones grow exponentially, with jitter. Defaults to 50 ms.</summary>
    public int RetryBaseDelayMilliseconds { get; set; } = 50;

    /// <summary>Circuit breaker: share of failed attempts within the sampling window that opens the circuit.
    /// Defaults to 0.5.</summary>
    public double BreakerFailureRatio { get; set; } = 0.5;

    /// <summary>Circuit breaker: attempts in the window before the ratio counts. Defaults to 20.</summary>
    public int BreakerMinimumThroughput { get; set; } = 20;

    /// <summary>Circuit breaker: the sampling window. Defaults to 5 s.</summary>
    public int BreakerSamplingSeconds { get; set; } = 5;

    /// <summary>Circuit breaker: how long an open circuit answers 503 at once, without trying the back-end; 0 turns
    /// the breaker off. Defaults to 5 s.</summary>
    public int BreakerBreakSeconds { get; set; } = 5;

    /// <summary>Forwards in flight at once; beyond it new requests are answered 503 with Retry-After at once
    /// instead of queueing without limit. Defaults to 1,024.</summary>
    public int MaxInFlight { get; set; } = 1_024;

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
