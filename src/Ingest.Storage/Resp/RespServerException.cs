namespace Ingest.Storage.Resp;

/// <summary>Redis answered a command with an error reply (<c>-ERR …</c>, <c>-OOM …</c>).</summary>
internal sealed class RespServerException : Exception
{
    public RespServerException()
    {
    }

    public RespServerException(string message)
        : base(message)
    {
    }

    public RespServerException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
