namespace Ingest.Storage;

/// <summary>The PostgreSQL sink. Bound from <c>Sinks:PostgreSql</c>; checked at start-up only when a type uses it.</summary>
public sealed class PostgreSqlSinkOptions : StoreBatchOptions
{
    public const string SectionName = "Sinks:PostgreSql";

    /// <summary>An Npgsql connection string, e.g. <c>Host=127.0.0.1;Port=5432;Username=ingest;Database=postgres</c>.
    /// Defaults to none: required when a type uses the PostgreSQL sink.</summary>
    public string? ConnectionString { get; set; }

    /// <summary>The table every event goes to (created at start-up when missing); a lower-case identifier.
    /// Defaults to <c>ingest_events</c>.</summary>
    public string Table { get; set; } = "ingest_events";

    /// <summary>Concurrent COPY writers, each on its own pooled connection (also the pool's maximum size).
    /// Defaults to 4.</summary>
    public int PoolSize { get; set; } = 4;
}
