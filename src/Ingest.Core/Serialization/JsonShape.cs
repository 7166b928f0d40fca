namespace Ingest.Core.Serialization;

/// <summary>Cheap looks at the first significant byte of a JSON document, to choose how to read it.</summary>
public static class JsonShape
{
    public static bool StartsWithArray(ReadOnlySpan<byte> utf8Json)
    {
        var trimmed = TrimStart(utf8Json);
        return !trimmed.IsEmpty && trimmed[0] == (byte)'[';
    }

    /// <summary>True when the document holds nothing but JSON whitespace.</summary>
    public static bool IsBlank(ReadOnlySpan<byte> utf8Json) => TrimStart(utf8Json).IsEmpty;

    /// <summary>Skips JSON whitespace (RFC 8259 §2: space, tab, line feed, carriage return) and a UTF-8 byte order mark.</summary>
    public static ReadOnlySpan<byte> TrimStart(ReadOnlySpan<byte> utf8Json)
    {
        if (utf8Json.StartsWith("\uFEFF"u8))
        {
            utf8Json = utf8Json[3..];
        }

        return utf8Json.TrimStart(" \t\r\n"u8);
    }
}
