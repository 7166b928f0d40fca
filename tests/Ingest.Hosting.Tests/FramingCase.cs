using System.Text;

namespace Ingest.Hosting.Tests;

/// <summary>
/// One hand-written request whose HTTP/1.1 body framing (chunked coding or Content-Length) is at fault, or is unusual
/// but valid. <see cref="MayBeAccepted"/>: valid framing (extensions, trailers) the service may take; otherwise it must
/// refuse. <see cref="RefusedBeforeTheApp"/>: Kestrel rejects the request head itself, with its own bodiless 400,
/// before any Ingest code runs. <see cref="MayCloseUnanswered"/>: the server may hang up without an answer although
/// the whole request arrived, because nothing after the fault can be read (see RequestBodyReader).
/// </summary>
public sealed record FramingCase(
    string Name,
    string Head,
    byte[] Body,
    ClientEnding Ending,
    bool MayBeAccepted = false,
    bool RefusedBeforeTheApp = false,
    bool MayCloseUnanswered = false)
{
    public byte[] Request => [.. Encoding.Latin1.GetBytes(Head), .. Body];

    public override string ToString() => Name;
}
