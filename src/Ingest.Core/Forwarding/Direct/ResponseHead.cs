using System.Buffers.Text;
using System.Text;

namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// The status line and the headers of an HTTP/1.1 answer, as far as <see cref="DirectConnection"/> needs them: the
/// status, how the body is framed, whether the connection stays open, and Retry-After in seconds. Strict where a
/// lenient reading could misframe the next answer on the connection (RFC 9112 §6.3): conflicting Content-Length
/// values, a transfer coding other than chunked, obsolete line folding and header lines without a colon are refused.
/// </summary>
internal readonly record struct ResponseHead(int Status, long ContentLength, bool Chunked, bool KeepAlive, int RetryAfterSeconds)
{
    /// <summary>Parses <paramref name="head"/>: the status line and every header line, each ending with CRLF.</summary>
    public static ResponseHead Parse(ReadOnlySpan<byte> head)
    {
        var lineEnd = head.IndexOf("\r\n"u8);
        var (status, http10) = StatusLine(head[..lineEnd]);
        head = head[(lineEnd + 2)..];

        long contentLength = -1;
        var chunked = false;
        var keepAlive = !http10;
        var retryAfter = 0;
        while (!head.IsEmpty)
        {
            lineEnd = head.IndexOf("\r\n"u8);
            var line = head[..lineEnd];
            head = head[(lineEnd + 2)..];
            if (line.IsEmpty)
            {
                continue;
            }

            if (line[0] is (byte)' ' or (byte)'\t')
            {
                throw DirectConnection.Invalid("a header is folded over two lines");
            }

            var colon = line.IndexOf((byte)':');
            if (colon <= 0)
            {
                throw DirectConnection.Invalid("a header line has no name");
            }

            var name = line[..colon];
            var value = line[(colon + 1)..].Trim(" \t"u8);
            if (Ascii.EqualsIgnoreCase(name, "content-length"u8))
            {
                if (!Utf8Parser.TryParse(value, out long length, out var consumed) || consumed != value.Length || length < 0
                    || (contentLength >= 0 && contentLength != length))
                {
                    throw DirectConnection.Invalid("its Content-Length is not one number");
                }

                contentLength = length;
            }
            else if (Ascii.EqualsIgnoreCase(name, "transfer-encoding"u8))
            {
                if (!Ascii.EqualsIgnoreCase(value, "chunked"u8))
                {
                    throw DirectConnection.Invalid("it uses a transfer coding other than chunked");
                }

                chunked = true;
            }
            else if (Ascii.EqualsIgnoreCase(name, "connection"u8))
            {
                keepAlive = !HasToken(value, "close"u8) && (keepAlive || HasToken(value, "keep-alive"u8));
            }
            else if (Ascii.EqualsIgnoreCase(name, "retry-after"u8))
            {
                // Delay-seconds only; an HTTP-date is ignored, as the forwarder did with HttpClient's parsed header.
                retryAfter = Utf8Parser.TryParse(value, out int seconds, out var consumed) && consumed == value.Length && seconds >= 0 ? seconds : 0;
            }
        }

        // A body framed by both is an attack on the framing: chunked decides it, and the connection is not reused.
        if (chunked && contentLength >= 0)
        {
            keepAlive = false;
        }

        return new ResponseHead(status, contentLength, chunked, keepAlive, retryAfter);
    }

    private static (int Status, bool Http10) StatusLine(ReadOnlySpan<byte> line)
    {
        // HTTP/1.1 200 OK — the reason phrase may be empty, and the space before it absent.
        if (line.Length < 12 || !line.StartsWith("HTTP/1."u8) || line[7] is not ((byte)'0' or (byte)'1') || line[8] != (byte)' '
            || !Utf8Parser.TryParse(line.Slice(9, 3), out int status, out var consumed) || consumed != 3 || status < 100
            || (line.Length > 12 && line[12] != (byte)' '))
        {
            throw DirectConnection.Invalid("its status line is not HTTP/1.x with a three-digit status");
        }

        return (status, line[7] == (byte)'0');
    }

    private static bool HasToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        foreach (var range in value.Split((byte)','))
        {
            if (Ascii.EqualsIgnoreCase(value[range].Trim(" \t"u8), token))
            {
                return true;
            }
        }

        return false;
    }
}
