using System.Text;
using Ingest.Core.Parsing;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// Content-Type parsing (<see cref="MediaTypes.TryGetFormat"/>), which decides between 415 and reading the body. Input:
/// the header value. Property: a value is accepted only when its media type is JSON or NDJSON, and the format
/// returned is that one.
/// </summary>
internal sealed class MediaTypesTarget : IFuzzTarget
{
    public string Name => "MediaTypes";

    public void Run(ReadOnlySpan<byte> input)
    {
        // Kestrel hands header values over as Latin-1 text, so every byte is one character.
        var contentType = Encoding.Latin1.GetString(input);
        if (!MediaTypes.TryGetFormat(contentType, out var format))
        {
            return;
        }

        var semicolon = contentType.IndexOf(';', StringComparison.Ordinal);
        var mediaType = (semicolon < 0 ? contentType : contentType[..semicolon]).Trim();
        var expected = format == PayloadFormat.Json ? MediaTypes.Json : MediaTypes.Ndjson;
        FuzzPropertyException.Check(mediaType.Equals(expected, StringComparison.OrdinalIgnoreCase), $"'{contentType}' is accepted only as {expected}");
    }
}
