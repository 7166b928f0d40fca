namespace Ingest.Hosting.Pages;

/// <summary>One of the last events on the back-end's status page, as text: whatever a client sent, rendered escaped.</summary>
public sealed record PageEvent(string Type, string Source, string Timestamp, string Detail);
