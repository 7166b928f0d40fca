namespace Ingest.Storage.Resp;

/// <summary>One parsed RESP2 reply. Strings are decoded as UTF-8; a null bulk string or array has
/// <see cref="IsNull"/> set.</summary>
internal sealed class RespReply
{
    private RespReply(RespReplyKind kind, string? text, long integer, RespReply[]? items)
    {
        Kind = kind;
        Text = text;
        Integer = integer;
        Items = items;
    }

    public RespReplyKind Kind { get; }

    /// <summary>The simple string, error message or bulk string.</summary>
    public string? Text { get; }

    public long Integer { get; }

    public RespReply[]? Items { get; }

    public bool IsNull => Text is null && Items is null && Kind is RespReplyKind.BulkString or RespReplyKind.Array;

    public bool IsError => Kind == RespReplyKind.Error;

    public static RespReply Simple(string text) => new(RespReplyKind.SimpleString, text, 0, null);

    public static RespReply Error(string message) => new(RespReplyKind.Error, message, 0, null);

    public static RespReply Number(long value) => new(RespReplyKind.Integer, null, value, null);

    public static RespReply Bulk(string? text) => new(RespReplyKind.BulkString, text, 0, null);

    public static RespReply Array(RespReply[]? items) => new(RespReplyKind.Array, null, 0, items);

    public override string ToString() => Kind switch
    {
        RespReplyKind.Integer => Integer.ToString(System.Globalization.CultureInfo.InvariantCulture),
        RespReplyKind.Array => Items is null ? "(nil array)" : "[" + string.Join(", ", Items.Select(i => i.ToString())) + "]",
        RespReplyKind.Error => "-" + Text,
        _ => Text ?? "(nil)",
    };
}
