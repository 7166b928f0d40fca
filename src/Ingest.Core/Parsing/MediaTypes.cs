namespace Ingest.Core.Parsing;

/// <summary>The content types of the contract, and the one place that decides whether a request's matches.</summary>
public static class MediaTypes
{
    public const string Json = "application/json";
    public const string Ndjson = "application/x-ndjson";
    public const string PlainText = "text/plain";

    /// <summary>
    /// Reads a Content-Type header value. Accepts <c>application/json</c> and <c>application/x-ndjson</c>
    /// in any case, with parameters, as long as a <c>charset</c> parameter (if any) names UTF-8.
    /// </summary>
    public static bool TryGetFormat(string? contentType, out PayloadFormat format)
    {
        format = PayloadFormat.Json;
        if (string.IsNullOrEmpty(contentType))
        {
            return false;
        }

        var span = contentType.AsSpan();
        var semicolon = span.IndexOf(';');
        var mediaType = (semicolon < 0 ? span : span[..semicolon]).Trim();
        if (mediaType.Equals(Json, StringComparison.OrdinalIgnoreCase))
        {
            format = PayloadFormat.Json;
        }
        else if (mediaType.Equals(Ndjson, StringComparison.OrdinalIgnoreCase))
        {
            format = PayloadFormat.Ndjson;
        }
        else
        {
            return false;
        }

        return semicolon < 0 || CharsetIsUtf8(span[(semicolon + 1)..]);
    }

    private static bool CharsetIsUtf8(ReadOnlySpan<char> parameters)
    {
        foreach (var range in parameters.Split(';'))
        {
            var parameter = parameters[range].Trim();
            var equals = parameter.IndexOf('=');
            if (equals < 0 || !parameter[..equals].Trim().Equals("charset", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            var value = parameter[(equals + 1)..].Trim().Trim('"');
            return value.Equals("utf-8", StringComparison.OrdinalIgnoreCase) || value.Equals("utf8", StringComparison.OrdinalIgnoreCase);
        }

        return true;
    }
}
