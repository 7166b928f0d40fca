namespace Ingest.Core.Contract;

/// <summary>What <c>GET /ingest/stats</c> answers: events persisted since start, in total and per type.</summary>
public sealed class IngestStats
{
    public long Total { get; set; }

    public TypeCounts ByType { get; set; } = new();
}
