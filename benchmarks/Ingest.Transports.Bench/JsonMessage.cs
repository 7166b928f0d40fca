namespace Ingest.Transports.Bench;

internal sealed class JsonMessage
{
    public required string Message { get; init; }
}
