namespace Ingest.Core.Sinks;

/// <summary>Where the back-end puts events of a type; chosen per type under <c>Sinks</c>. <see cref="Null"/> and
/// <see cref="Memory"/> are built in; the stores are registered by Ingest.Storage (<c>AddIngestStorage</c>).</summary>
public enum SinkKind
{
    /// <summary>Counts events and keeps nothing: measures everything but storage.</summary>
    Null,

    /// <summary>Counts events and keeps a bounded ring of the most recent ones.</summary>
    Memory,

    /// <summary>Appends NDJSON to a file per type, rotated by size (Ingest.Storage, <c>Sinks:File</c>).</summary>
    File,

    /// <summary>Binary COPY into one PostgreSQL table, in batches (Ingest.Storage, <c>Sinks:PostgreSql</c>).</summary>
    PostgreSql,

    /// <summary>XADD to a Redis stream per type, pipelined (Ingest.Storage, <c>Sinks:Redis</c>).</summary>
    Redis,
}
