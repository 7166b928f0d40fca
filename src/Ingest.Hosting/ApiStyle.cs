namespace Ingest.Hosting;

/// <summary>How the endpoints are written; chosen by <c>Ingest:ApiStyle</c>. All three serve the same contract.</summary>
public enum ApiStyle
{
    /// <summary>Minimal APIs: endpoint routing and handler delegates (TechEmpower's "micro" class).</summary>
    Minimal,

    /// <summary>MVC controllers with input and output formatters (the "full" class).</summary>
    Mvc,

    /// <summary>One terminal middleware reading the body pipe directly: no routing, no model binding (the "platform" class).</summary>
    Raw,
}
