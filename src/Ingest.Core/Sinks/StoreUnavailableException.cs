namespace Ingest.Core.Sinks;

/// <summary>
/// Thrown by a sink whose store cannot take the events now (down, unreachable, timed out, answering errors).
/// Nothing of the write was acknowledged; the back-end answers 503 <c>store-unavailable</c> with
/// <c>Retry-After</c>, so the caller retries instead of losing the events.
/// </summary>
public sealed class StoreUnavailableException : Exception
{
    public StoreUnavailableException()
        : this("The store is unavailable.")
    {
    }

    public StoreUnavailableException(string message)
        : this(message, null)
    {
    }

    public StoreUnavailableException(string message, Exception? innerException)
        : base(message, innerException)
    {
    }

    public StoreUnavailableException(SinkKind sink, string message, int retryAfterSeconds, Exception? innerException = null)
        : base(message, innerException)
    {
        Sink = sink;
        RetryAfterSeconds = retryAfterSeconds;
    }

    public SinkKind Sink { get; }

    /// <summary>What the answer's <c>Retry-After</c> says. Defaults to 1.</summary>
    public int RetryAfterSeconds { get; } = 1;
}
