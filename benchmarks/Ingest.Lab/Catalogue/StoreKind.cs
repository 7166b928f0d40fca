namespace Ingest.Lab.Catalogue;

/// <summary>A store a scenario's back-end writes to, started by the lab for that scenario only (loopback, a throwaway
/// directory) and stopped and deleted after it.</summary>
internal enum StoreKind
{
    /// <summary>PostgreSQL 15 through tests/lib/postgres.sh; the back-end gets <c>Sinks:PostgreSql:ConnectionString</c>.</summary>
    PostgreSql,

    /// <summary>Redis through tests/lib/redis.sh; the back-end gets <c>Sinks:Redis:Endpoint</c>.</summary>
    Redis,

    /// <summary>An empty directory; the back-end gets <c>Sinks:File:Directory</c>.</summary>
    Files,
}
