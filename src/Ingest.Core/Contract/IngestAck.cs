namespace Ingest.Core.Contract;

/// <summary>The front-end's answer to an accepted <c>POST /ingest/event</c>.</summary>
public sealed class IngestAck
{
    public int Accepted { get; set; }
}
