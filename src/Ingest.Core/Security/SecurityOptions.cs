namespace Ingest.Core.Security;

/// <summary>Who may call. Bound from the <c>Security</c> section of both services.</summary>
public sealed class SecurityOptions
{
    public const string SectionName = "Security";

    /// <summary>The header a front-end sends its shared key in.</summary>
    public const string SharedKeyHeader = "X-Ingest-Key";

    /// <summary>The header a client sends its API key in.</summary>
    public const string ApiKeyHeader = "X-Api-Key";

    /// <summary>A secret the front-end sends with every forward and the back-end requires on <c>/ingest/data</c>
    /// (compared in constant time); forwards over a Unix domain socket need none. Defaults to null: no check.</summary>
    public string? SharedKey { get; set; }

    /// <summary>API keys the front-end accepts on <c>/ingest/event</c> (header X-Api-Key). Defaults to none: open.</summary>
    public string[] ApiKeys { get; set; } = [];
}
