namespace Ingest.Storage;

/// <summary>How a store's writers gather requests into batches; shared by the PostgreSQL, Redis and file sinks,
/// each under its own section (<c>Sinks:PostgreSql:BatchMaxEvents</c>, …).</summary>
public abstract class StoreBatchOptions
{
    /// <summary>Most events in one write to the store (one COPY, one pipeline, one file write). Defaults to 1,000.</summary>
    public int BatchMaxEvents { get; set; } = 1_000;

    /// <summary>How long a writer waits for more requests after the first of a batch; 0 takes only what is
    /// already queued (under load, requests queue while the previous batch is written). Defaults to 0.</summary>
    public int LingerMilliseconds { get; set; }

    /// <summary>Requests waiting for a writer before new ones wait for room (back-pressure). Defaults to 10,000.</summary>
    public int QueueCapacity { get; set; } = 10_000;

    /// <summary>The <c>Retry-After</c> of the 503 answered while the store is unavailable. Defaults to 1 second.</summary>
    public int RetryAfterSeconds { get; set; } = 1;

    /// <summary>Longest time one write to the store may take before it counts as failed. Defaults to 10,000 ms.</summary>
    public int WriteTimeoutMilliseconds { get; set; } = 10_000;
}
