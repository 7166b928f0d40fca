namespace Ingest.LoadGen;

/// <summary>Connection churn during the measured phase.</summary>
public sealed record ConnectionCounts
{
    /// <summary>Connections established.</summary>
    public required long Opened { get; init; }

    /// <summary>Connections re-established after the server closed one (Connection: close, a body delimited
    /// by the close, an idle close) or after a failure.</summary>
    public required long Reconnects { get; init; }

    /// <summary>Responses after which the server closed the connection (Connection: close, HTTP/1.0, or a
    /// body delimited by the close).</summary>
    public required long ClosedByServer { get; init; }
}
