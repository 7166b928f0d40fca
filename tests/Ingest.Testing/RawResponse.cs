namespace Ingest.Testing;

/// <summary>One HTTP/1.1 response as it came off the wire: status, raw head (status line and headers) and body text
/// (chunked framing removed).</summary>
public sealed record RawResponse(int Status, string Head, string Body)
{
    /// <summary>The value of the first header named <paramref name="name"/> (case-insensitive), or null.</summary>
    public string? Header(string name)
    {
        foreach (var line in Head.Split("\r\n"))
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            if (colon > 0 && line.AsSpan(0, colon).Trim().Equals(name, StringComparison.OrdinalIgnoreCase))
            {
                return line[(colon + 1)..].Trim();
            }
        }

        return null;
    }
}
