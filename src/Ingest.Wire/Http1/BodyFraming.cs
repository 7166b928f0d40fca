namespace Ingest.Wire.Http1;

/// <summary>How a response's body is delimited (RFC 9112 §6.3).</summary>
public enum BodyFraming
{
    /// <summary>No body: 204, 304, an answer to HEAD, or a Content-Length of 0.</summary>
    None,

    /// <summary>As many bytes as the Content-Length says.</summary>
    ContentLength,

    /// <summary>The chunked transfer coding, up to its last chunk and trailer section.</summary>
    Chunked,

    /// <summary>Neither length nor chunks: the body ends when the server closes the connection.</summary>
    UntilClose,
}
