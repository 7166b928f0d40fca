using System.Buffers.Text;
using System.Text;

namespace Ingest.LoadGen.Internal;

/// <summary>
/// An incremental HTTP/1.1 response parser (RFC 9112) that keeps no bytes itself: the caller hands it
/// whatever it has buffered and keeps the unconsumed tail (an incomplete head or chunk-size line) for the
/// next call. Body bytes are skipped as they arrive, so a response of any size needs no more buffer than
/// its head. It understands status line, Content-Length, chunked transfer coding (extensions and trailers
/// included), bodies delimited by the end of the connection, 1xx interim responses, responses without
/// body (HEAD, 204, 304) and Connection: close / keep-alive (with HTTP/1.0's default of close).
/// </summary>
/// <remarks>One instance per connection, reused for every response; parsing allocates nothing.</remarks>
internal sealed class HttpResponseParser
{
    /// <summary>Longest chunk-size or trailer line accepted; a real one is a few bytes.</summary>
    private const int MaxLineLength = 4096;

    private State _state;
    private long _remaining;

    public HttpResponseParser(bool responsesHaveNoBody = false)
    {
        ResponsesHaveNoBody = responsesHaveNoBody;
    }

    private enum State
    {
        Head,
        Body,
        ChunkSize,
        ChunkData,
        ChunkDataEnd,
        Trailers,
        UntilClose,
    }

    /// <summary>True for HEAD requests: no response carries a body whatever its headers say.</summary>
    public bool ResponsesHaveNoBody { get; }

    /// <summary>The status code of the response in progress or just completed.</summary>
    public int StatusCode { get; private set; }

    /// <summary>False when the server will close the connection after this response.</summary>
    public bool KeepAlive { get; private set; }

    /// <summary>Why the last <see cref="ParseStatus.Error"/> happened (a constant string, for diagnostics).</summary>
    public string? Error { get; private set; }

    /// <summary>True between responses: nothing of the next one has been consumed.</summary>
    public bool IsBetweenResponses => _state == State.Head;

    /// <summary>True when the current response's body ends only with the connection.</summary>
    public bool IsReadingUntilClose => _state == State.UntilClose;

    public void Reset()
    {
        _state = State.Head;
        _remaining = 0;
        StatusCode = 0;
        KeepAlive = false;
        Error = null;
    }

    /// <summary>
    /// Parses from the start of <paramref name="data"/> until one response completes, more bytes are
    /// needed, or the bytes are malformed. <paramref name="consumed"/> is how many bytes the caller may drop;
    /// the rest (an incomplete line, or the next response) must be given again.
    /// </summary>
    public ParseStatus Parse(ReadOnlySpan<byte> data, out int consumed)
    {
        consumed = 0;
        while (true)
        {
            var rest = data[consumed..];
            switch (_state)
            {
                case State.Head:
                {
                    var end = rest.IndexOf("\r\n\r\n"u8);
                    if (end < 0)
                    {
                        return ParseStatus.NeedMore;
                    }

                    consumed += end + 4;
                    if (!ParseHead(rest[..(end + 2)], out var interim))
                    {
                        return ParseStatus.Error;
                    }

                    if (interim)
                    {
                        continue;
                    }

                    if (_state == State.Head)
                    {
                        return ParseStatus.Complete;
                    }

                    break;
                }

                case State.Body:
                case State.ChunkData:
                {
                    var take = (int)Math.Min(_remaining, rest.Length);
                    consumed += take;
                    _remaining -= take;
                    if (_remaining > 0)
                    {
                        return ParseStatus.NeedMore;
                    }

                    if (_state == State.Body)
                    {
                        _state = State.Head;
                        return ParseStatus.Complete;
                    }

                    _state = State.ChunkDataEnd;
                    break;
                }

                case State.ChunkDataEnd:
                {
                    if (rest.IsEmpty || (rest[0] == (byte)'\r' && rest.Length < 2))
                    {
                        return ParseStatus.NeedMore;
                    }

                    var length = rest[0] == (byte)'\n' ? 1 : rest[0] == (byte)'\r' && rest[1] == (byte)'\n' ? 2 : 0;
                    if (length == 0)
                    {
                        return Fail("chunk data not followed by CRLF");
                    }

                    consumed += length;
                    _state = State.ChunkSize;
                    break;
                }

                case State.ChunkSize:
                {
                    if (!TryTakeLine(rest, out var line, out var lineLength, out var tooLong))
                    {
                        return tooLong ? Fail("chunk-size line too long") : ParseStatus.NeedMore;
                    }

                    if (!TryParseChunkSize(line, out var size))
                    {
                        return Fail("malformed chunk size");
                    }

                    consumed += lineLength;
                    _remaining = size;
                    _state = size == 0 ? State.Trailers : State.ChunkData;
                    break;
                }

                case State.Trailers:
                {
                    if (!TryTakeLine(rest, out var line, out var lineLength, out var tooLong))
                    {
                        return tooLong ? Fail("trailer line too long") : ParseStatus.NeedMore;
                    }

                    consumed += lineLength;
                    if (line.IsEmpty)
                    {
                        _state = State.Head;
                        return ParseStatus.Complete;
                    }

                    break;
                }

                case State.UntilClose:
                    consumed = data.Length;
                    return ParseStatus.NeedMore;
            }
        }
    }

    /// <summary>Called when the server closed the connection: true if that ended a response whose body
    /// was delimited by the close (RFC 9112 §6.3, rule 8).</summary>
    public bool CompleteAtEndOfStream()
    {
        if (_state != State.UntilClose)
        {
            return false;
        }

        _state = State.Head;
        return true;
    }

    private static bool TryTakeLine(ReadOnlySpan<byte> data, out ReadOnlySpan<byte> line, out int lineLength, out bool tooLong)
    {
        var newline = data.IndexOf((byte)'\n');
        if (newline < 0)
        {
            line = default;
            lineLength = 0;
            tooLong = data.Length > MaxLineLength;
            return false;
        }

        lineLength = newline + 1;
        line = newline > 0 && data[newline - 1] == (byte)'\r' ? data[..(newline - 1)] : data[..newline];
        tooLong = false;
        return true;
    }

    private static bool TryParseChunkSize(ReadOnlySpan<byte> line, out long size)
    {
        size = 0;
        var digits = 0;
        foreach (var b in line)
        {
            int value;
            if (b is >= (byte)'0' and <= (byte)'9')
            {
                value = b - '0';
            }
            else if (b is >= (byte)'a' and <= (byte)'f')
            {
                value = b - 'a' + 10;
            }
            else if (b is >= (byte)'A' and <= (byte)'F')
            {
                value = b - 'A' + 10;
            }
            else if (b is (byte)';' or (byte)' ' or (byte)'\t')
            {
                break; // chunk extensions are ignored
            }
            else
            {
                return false;
            }

            if (++digits > 15)
            {
                return false; // more than 2^60 bytes: not a real chunk
            }

            size = (size << 4) | (long)value;
        }

        return digits > 0;
    }

    private ParseStatus Fail(string reason)
    {
        Error = reason;
        return ParseStatus.Error;
    }

    /// <summary>Parses the status line and the headers that decide framing and persistence.
    /// <paramref name="head"/> ends with the CRLF of its last line.</summary>
    private bool ParseHead(ReadOnlySpan<byte> head, out bool interim)
    {
        interim = false;
        var newline = head.IndexOf((byte)'\n');
        var statusLine = head[..newline].TrimEnd((byte)'\r');

        // "HTTP/1.x SP 3DIGIT [SP reason]"
        if (statusLine.Length < 12 || !statusLine.StartsWith("HTTP/1."u8) || statusLine[8] != (byte)' ' ||
            !IsDigit(statusLine[9]) || !IsDigit(statusLine[10]) || !IsDigit(statusLine[11]) ||
            (statusLine.Length > 12 && statusLine[12] != (byte)' '))
        {
            Fail("malformed status line");
            return false;
        }

        var http11 = statusLine[7] == (byte)'1';
        var status = ((statusLine[9] - '0') * 100) + ((statusLine[10] - '0') * 10) + (statusLine[11] - '0');
        if (status is < 100 or > 599)
        {
            // "All valid status codes are within the range of 100 to 599" (RFC 9110 §15): 000 or 701 is no HTTP
            // answer, and counting it as one would put a broken peer's bytes in the status table (found by fuzzing).
            Fail("status code outside 100-599");
            return false;
        }

        long contentLength = -1;
        var chunked = false;
        var otherTransferCoding = false;
        var close = false;
        var keepAliveToken = false;

        var rest = head[(newline + 1)..];
        while (!rest.IsEmpty)
        {
            newline = rest.IndexOf((byte)'\n');
            var line = (newline < 0 ? rest : rest[..newline]).TrimEnd((byte)'\r');
            rest = newline < 0 ? default : rest[(newline + 1)..];
            var colon = line.IndexOf((byte)':');
            if (colon <= 0)
            {
                Fail("malformed header line");
                return false;
            }

            var name = line[..colon];
            var value = line[(colon + 1)..].Trim(" \t"u8);
            if (Ascii.EqualsIgnoreCase(name, "content-length"u8))
            {
                if (value.IsEmpty || !IsDigit(value[0]) || !Utf8Parser.TryParse(value, out long length, out var used) ||
                    used != value.Length || (contentLength >= 0 && contentLength != length))
                {
                    Fail("malformed content-length");
                    return false;
                }

                contentLength = length;
            }
            else if (Ascii.EqualsIgnoreCase(name, "transfer-encoding"u8))
            {
                // The final coding decides: chunked means chunk framing; anything else means read to close.
                var lastComma = value.LastIndexOf((byte)',');
                var last = (lastComma < 0 ? value : value[(lastComma + 1)..]).Trim(" \t"u8);
                chunked = Ascii.EqualsIgnoreCase(last, "chunked"u8);
                otherTransferCoding = !chunked;
            }
            else if (Ascii.EqualsIgnoreCase(name, "connection"u8))
            {
                foreach (var range in value.Split((byte)','))
                {
                    var token = value[range].Trim(" \t"u8);
                    close |= Ascii.EqualsIgnoreCase(token, "close"u8);
                    keepAliveToken |= Ascii.EqualsIgnoreCase(token, "keep-alive"u8);
                }
            }
        }

        if (status is >= 100 and < 200)
        {
            if (status == 101)
            {
                Fail("protocol switch (101) is not supported");
                return false;
            }

            interim = true; // 100 Continue, 103 Early Hints: the real response follows
            return true;
        }

        StatusCode = status;
        KeepAlive = !close && (http11 || keepAliveToken);
        if (ResponsesHaveNoBody || status == 204 || status == 304)
        {
            _state = State.Head;
        }
        else if (chunked)
        {
            _state = State.ChunkSize;
        }
        else if (otherTransferCoding || contentLength < 0)
        {
            _state = State.UntilClose;
            KeepAlive = false;
        }
        else if (contentLength == 0)
        {
            _state = State.Head;
        }
        else
        {
            _state = State.Body;
            _remaining = contentLength;
        }

        return true;
    }

    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';
}
