namespace Ingest.Core.Sinks;

/// <summary>Where the back-end puts events of a type; chosen per type under <c>Sinks</c>.</summary>
public enum SinkKind
{
    /// <summary>Counts events and keeps nothing: measures everything but storage.</summary>
    Null,

    /// <summary>Counts events and keeps a bounded ring of the most recent ones.</summary>
    Memory,
}
