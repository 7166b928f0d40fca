namespace Ingest.Core.Events;

/// <summary>
/// A validated, normalised event: what the front-end forwards and the back-end persists.
/// Type-specific members are null when they do not apply; serializers omit them.
/// </summary>
/// <remarks>A class with settable properties rather than a record hierarchy: the three serializers
/// (Newtonsoft.Json, System.Text.Json reflection and source-generated) then read and write exactly
/// the same shape without polymorphism settings that only some of them support.</remarks>
public sealed class IngestEvent
{
    /// <summary>Always set on an event the front-end normalised; null only on one read back that lacked it,
    /// which the back-end's check refuses.</summary>
    public EventType? Type { get; set; }

    public string Source { get; set; } = "";

    /// <summary>When the event happened, in UTC.</summary>
    public DateTime Timestamp { get; set; }

    /// <summary>When the front-end received it, in UTC.</summary>
    public DateTime ReceivedAt { get; set; }

    public string? JobId { get; set; }

    public string? ContainerId { get; set; }

    public string? Status { get; set; }

    public string? Name { get; set; }

    public double? Value { get; set; }

    public string? Unit { get; set; }

    public string? Level { get; set; }

    public string? Message { get; set; }
}
