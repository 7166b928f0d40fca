namespace Ingest.Core.Parsing;

/// <summary>How a request body holds its events, as its Content-Type says.</summary>
public enum PayloadFormat
{
    /// <summary><c>application/json</c>: one event object or a JSON array of them.</summary>
    Json,

    /// <summary><c>application/x-ndjson</c>: one event object per line.</summary>
    Ndjson,
}
