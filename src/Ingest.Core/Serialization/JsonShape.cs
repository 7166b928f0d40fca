using System.Buffers;

namespace Ingest.Core.Serialization;

/// <summary>Cheap looks at a JSON document before it is parsed.</summary>
public static class JsonShape
{
    // Control characters JSON never allows raw (RFC 8259 §7: in strings they must be escaped; outside strings only
    // tab, line feed and carriage return are whitespace).
    private static readonly SearchValues<byte> RawControls = SearchValues.Create(
        [.. Enumerable.Range(0, 0x20).Where(b => b is not ('\t' or '\n' or '\r')).Select(b => (byte)b)]);

    /// <summary>True when the document holds a raw control byte: never valid JSON, though Newtonsoft.Json reads
    /// some (NUL as whitespace, controls inside strings). Checked for every serializer, so all refuse alike.</summary>
    public static bool ContainsRawControl(ReadOnlySpan<byte> utf8Json) => utf8Json.IndexOfAny(RawControls) >= 0;

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
