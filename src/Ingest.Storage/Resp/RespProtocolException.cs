namespace Ingest.Storage.Resp;

/// <summary>The server sent bytes that are not RESP2: the connection cannot be trusted any more.</summary>
internal sealed class RespProtocolException : Exception
{
    public RespProtocolException()
    {
    }

    public RespProtocolException(string message)
        : base(message)
    {
    }

    public RespProtocolException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
