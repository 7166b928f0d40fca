using System.Globalization;
using System.Text;
using static Ingest.Hosting.Tests.ClientEnding;

namespace Ingest.Hosting.Tests;

/// <summary>
/// A generated family of request-body framing faults for one write endpoint, built around a body it accepts: chunk
/// sizes that overflow, are negative or are not hex; missing or half CRLFs after the size and after the data; chunk
/// extensions and trailers, valid and malformed and overlong; a last chunk that never comes; a body shorter or
/// longer than its Content-Length; Content-Length and chunked together. The class is tested, not one case.
/// </summary>
internal static class FramingFaults
{
    public static IEnumerable<FramingCase> For(string path, string contentType, byte[] valid, int maxBodyBytes)
    {
        var head = $"POST {path} HTTP/1.1\r\nHost: ingest\r\nContent-Type: {contentType}\r\n";
        var chunked = head + "Transfer-Encoding: chunked\r\n\r\n";
        // Cases the service may accept ask to close afterwards, so an accepted one ends as promptly as a refused one.
        var chunkedThenClose = head + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        var size = Hex(valid.Length);
        var half = valid.Length / 2;

        // Chunk sizes Kestrel cannot hold in an int: it throws IOException(OverflowException), not BadHttpRequestException.
        foreach (var digits in new[] { 8, 9, 10, 16, 20, 64 })
        {
            yield return new($"a chunk size of {digits} hex digits F", chunked, Chunk(new string('F', digits), valid), StaysOpen);
        }

        yield return new("a chunk size of 0x7FFFFFFF + 1", chunked, Chunk("80000000", valid), StaysOpen);
        yield return new("a chunk size of 0x100000000", chunked, Chunk("100000000", valid), StaysOpen);
        yield return new("a chunk size of 2^64", chunked, Chunk("10000000000000000", valid), StaysOpen);
        yield return new("an overflowing size after a valid first chunk", chunked,
            [.. Ascii(Hex(half) + "\r\n"), .. valid.AsSpan(0, half), .. Ascii("\r\nFFFFFFFFFFFFFFFFFFFF\r\n"), .. valid.AsSpan(half), .. "\r\n0\r\n\r\n"u8], StaysOpen);
        yield return new("the largest chunk size, whose data never comes", chunked, Chunk("7FFFFFFF", valid), HalfCloses);
        yield return new("a chunk size with leading zeros beyond ten bytes", chunked, Chunk("0000000000" + size, valid), StaysOpen);

        // Negative, signed, prefixed, blank or non-hex sizes.
        foreach (var (name, line) in new[]
        {
            ("negative", "-1"), ("negative, the body's length", "-" + size), ("signed", "+" + size), ("0x-prefixed", "0x" + size),
            ("not hex", "zz"), ("hex then a letter", size + "g"), ("a decimal point", size + ".0"), ("blank", ""),
            ("a leading space", " " + size), ("a trailing space", size + " "), ("a tab", "\t" + size), ("a NUL", size + "\0"),
            ("a non-ASCII byte", size + "\u00bd"), ("fullwidth digits in UTF-8", Encoding.Latin1.GetString(Encoding.UTF8.GetBytes("\uff11\uff10"))),
        })
        {
            yield return new($"a chunk size that is {name}", chunked, Chunk(line, valid), StaysOpen);
        }

        // Missing or half CRLFs after the size and after the data.
        yield return new("no CRLF after the size", chunked, [.. Ascii(size), .. valid, .. "\r\n0\r\n\r\n"u8], StaysOpen);
        yield return new("a bare CR after the size", chunked, [.. Ascii(size + "\r"), .. valid, .. "\r\n0\r\n\r\n"u8], StaysOpen);
        yield return new("a bare LF after the size", chunked, [.. Ascii(size + "\n"), .. valid, .. "\r\n0\r\n\r\n"u8], StaysOpen);
        yield return new("no CRLF after the data", chunked, [.. Ascii(size + "\r\n"), .. valid, .. "0\r\n\r\n"u8], StaysOpen);
        yield return new("a bare LF after the data", chunked, [.. Ascii(size + "\r\n"), .. valid, .. "\n0\r\n\r\n"u8], StaysOpen);
        yield return new("a bare CR after the data", chunked, [.. Ascii(size + "\r\n"), .. valid, .. "\r0\r\n\r\n"u8], StaysOpen);
        yield return new("more data than the chunk size", chunked, Chunk(Hex(valid.Length - 3), valid), StaysOpen);
        yield return new("less data than the chunk size", chunked, Chunk(Hex(valid.Length + 7), valid), HalfCloses);
        yield return new("no CRLF after the last chunk", chunked, [.. Ascii(size + "\r\n"), .. valid, .. "\r\n0\r\n"u8], HalfCloses);

        // Chunk extensions (RFC 9112 §7.1.1): valid ones are ignored; Kestrel skips any bytes up to the CRLF, so the
        // malformed ones may be taken too, as long as the size and the CRLF are right.
        foreach (var extension in new[] { ";name", ";name=value", "; a=1 ; b=2", ";q=\"quoted; value\"", ";" + new string('e', 4096) })
        {
            yield return new($"a chunk extension '{Shorten(extension)}'", chunkedThenClose, Chunk(size + extension, valid), StaysOpen, MayBeAccepted: true);
        }

        foreach (var extension in new[] { ";", ";=", ";\"unterminated", ";a\rb", ";\0" })
        {
            yield return new($"a malformed chunk extension '{Shorten(extension)}'", chunkedThenClose, Chunk(size + extension, valid), StaysOpen, MayBeAccepted: true);
        }

        yield return new("an extension on the last chunk", chunkedThenClose, [.. Ascii(size + "\r\n"), .. valid, .. "\r\n0;last=yes\r\n\r\n"u8], StaysOpen, MayBeAccepted: true);
        yield return new("an extension longer than the body limit", chunked, Chunk(size + ";" + new string('x', maxBodyBytes + 1), valid), StaysOpen);
        yield return new("an extension that never ends", chunked, Ascii(size + ";" + new string('x', 1000)), HalfCloses);

        // Trailers (RFC 9112 §7.1.2).
        yield return new("a trailer", chunkedThenClose, Last(valid, "X-Checksum: 1234\r\n"), StaysOpen, MayBeAccepted: true);
        yield return new("three trailers", chunkedThenClose, Last(valid, "X-A: 1\r\nX-B: 2\r\nX-C: 3\r\n"), StaysOpen, MayBeAccepted: true);
        yield return new("a trailer without a colon", chunked, Last(valid, "no colon here\r\n"), StaysOpen);
        yield return new("a trailer with a space before its colon", chunked, Last(valid, "X-A : 1\r\n"), StaysOpen);
        yield return new("a folded trailer line", chunked, Last(valid, "X-A: 1\r\n continued\r\n"), StaysOpen);
        // Kestrel throws InvalidOperationException for this one, which it cannot drain afterwards: the connection is closed.
        yield return new("a trailer with a NUL in its value", chunked, Last(valid, "X-A: a\0b\r\n"), StaysOpen, MayCloseUnanswered: true);
        // RFC 9112 §2.2 lets a recipient take a bare LF as a line's end, and Kestrel does in headers and trailers.
        yield return new("a trailer ended by a bare LF", chunkedThenClose, Last(valid, "X-A: 1\n"), StaysOpen, MayBeAccepted: true);
        yield return new("a trailer larger than the header limit", chunked, Last(valid, "X-Huge: " + new string('t', 40_000) + "\r\n"), StaysOpen);
        yield return new("trailers that never end", chunked, [.. Ascii(size + "\r\n"), .. valid, .. "\r\n0\r\nX-A: 1\r\n"u8], HalfCloses);

        // A last chunk that never comes: the client half-closes.
        yield return new("a chunked body that stops after its first chunk", chunked, [.. Ascii(size + "\r\n"), .. valid, .. "\r\n"u8], HalfCloses);
        yield return new("a chunked body that stops inside a chunk", chunked, [.. Ascii(size + "\r\n"), .. valid.AsSpan(0, half)], HalfCloses);
        yield return new("a chunked body that stops after a size line", chunked, Ascii(size + "\r\n"), HalfCloses);
        yield return new("a chunked body that never starts", chunked, [], HalfCloses);
        yield return new("a client that resets inside a chunk", chunked, [.. Ascii(size + "\r\n"), .. valid.AsSpan(0, half)], Resets);

        // Content-Length that lies, or is not one.
        yield return new("a body shorter than its Content-Length", head + $"Content-Length: {valid.Length + 100}\r\n\r\n", valid, HalfCloses);
        yield return new("a body longer than its Content-Length", head + $"Content-Length: {valid.Length - 5}\r\n\r\n", [.. valid, .. "\r\n\r\n"u8], StaysOpen);
        yield return new("a Content-Length beyond the body limit", head + $"Content-Length: {maxBodyBytes + 1}\r\n\r\n", valid, HalfCloses);
        yield return new("a client that resets inside a Content-Length body", head + $"Content-Length: {valid.Length}\r\n\r\n", valid.AsSpan(0, half).ToArray(), Resets);
        foreach (var (name, value) in new[] { ("negative", "-1"), ("beyond a long", "99999999999999999999"), ("not a number", "lots"), ("hex", "0x10") })
        {
            yield return new($"a Content-Length that is {name}", head + $"Content-Length: {value}\r\n\r\n", valid, StaysOpen, RefusedBeforeTheApp: true);
        }

        yield return new("two different Content-Lengths", head + $"Content-Length: {valid.Length}\r\nContent-Length: 3\r\n\r\n", valid, StaysOpen, RefusedBeforeTheApp: true);

        // Both framings at once (RFC 9112 §6.3: chunked wins, and the connection must close after the answer), and
        // codings where chunked is not the last one (the length cannot be known: 400 and close).
        yield return new("Content-Length and chunked", head + $"Content-Length: {valid.Length}\r\nTransfer-Encoding: chunked\r\n\r\n", Chunk(size, valid), StaysOpen, MayBeAccepted: true);
        yield return new("chunked and a Content-Length of 0", head + "Transfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n", Chunk(size, valid), StaysOpen, MayBeAccepted: true);
        yield return new("Content-Length and a broken chunked body", head + $"Content-Length: {valid.Length}\r\nTransfer-Encoding: chunked\r\n\r\n", Chunk("FFFFFFFFFFFFFFFFFFFF", valid), StaysOpen);
        yield return new("chunked, then gzip", head + "Transfer-Encoding: chunked, gzip\r\n\r\n", Chunk(size, valid), StaysOpen, RefusedBeforeTheApp: true);
        yield return new("a transfer coding that is not chunked", head + "Transfer-Encoding: identity\r\n\r\n", valid, StaysOpen, RefusedBeforeTheApp: true);
    }

    private static byte[] Chunk(string sizeLine, byte[] data) => [.. Ascii(sizeLine + "\r\n"), .. data, .. "\r\n0\r\n\r\n"u8];

    private static byte[] Last(byte[] data, string trailers) => [.. Ascii(Hex(data.Length) + "\r\n"), .. data, .. Ascii("\r\n0\r\n" + trailers + "\r\n")];

    private static string Hex(int value) => value.ToString("x", CultureInfo.InvariantCulture);

    private static byte[] Ascii(string text) => Encoding.Latin1.GetBytes(text);

    private static string Shorten(string text) => (text.Length > 12 ? text[..12] + "…" : text).Replace("\0", "\\0", StringComparison.Ordinal).Replace("\r", "\\r", StringComparison.Ordinal);
}
