namespace Ingest.Hosting.Pages;

/// <summary>One row of a status page's table: a configuration fact or a counter, with its value as text.</summary>
public sealed record PageFact(string Name, string Value);
