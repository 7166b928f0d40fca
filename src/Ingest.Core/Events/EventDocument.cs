namespace Ingest.Core.Events;

/// <summary>
/// One incoming event object exactly as a client sent it, before validation: either the classic
/// payload (<see cref="Data"/> holds the inner document) or a typed event. Every member is optional
/// here; <see cref="Validation.EventValidator"/> decides what is required.
/// </summary>
public sealed class EventDocument
{
    /// <summary>The classic payload's inner document (a JSON object that may use single quotes).</summary>
    public string? Data { get; set; }

    public string? Type { get; set; }

    public string? Source { get; set; }

    /// <summary>Read as text and parsed by <see cref="Validation.Timestamps"/>, so every serializer accepts exactly
    /// RFC 3339 with an offset (the libraries' own date parsing differs, and accepts dates without one).</summary>
    public string? Timestamp { get; set; }

    public string? JobId { get; set; }

    public string? ContainerId { get; set; }

    public string? Status { get; set; }

    public string? Name { get; set; }

    public double? Value { get; set; }

    public string? Unit { get; set; }

    public string? Level { get; set; }

    public string? Message { get; set; }
}
