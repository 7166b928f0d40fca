namespace Ingest.Core.Contract;

/// <summary>The body of <c>GET /json</c> (TechEmpower's JSON test): a new instance per request.</summary>
public sealed class HelloMessage
{
    public const string Text = "Hello, World!";

    public string Message { get; set; } = Text;
}
