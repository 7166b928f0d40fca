namespace Ingest.Core.Contract;

/// <summary>The back-end's answer to an accepted <c>POST /ingest/data</c>.</summary>
public sealed class PersistAck
{
    public int Persisted { get; set; }
}
