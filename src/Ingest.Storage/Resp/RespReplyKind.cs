namespace Ingest.Storage.Resp;

/// <summary>The RESP2 reply types (https://redis.io/docs/latest/develop/reference/protocol-spec/).</summary>
internal enum RespReplyKind
{
    /// <summary><c>+OK</c></summary>
    SimpleString,

    /// <summary><c>-ERR message</c></summary>
    Error,

    /// <summary><c>:42</c></summary>
    Integer,

    /// <summary><c>$5\r\nhello</c>; <c>$-1</c> is a null bulk string.</summary>
    BulkString,

    /// <summary><c>*2\r\n…</c>; <c>*-1</c> is a null array.</summary>
    Array,
}
