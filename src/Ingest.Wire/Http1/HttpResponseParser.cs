using System.Buffers;
using System.Text;

namespace Ingest.Wire.Http1;

/// <summary>
/// The one HTTP/1.1 response parser (RFC 9112) of the load generator, the fast path's client (LoopDirect) and the tests'
/// raw client, fuzzed by tests/fuzz (target HttpResponseParser). Incremental, and keeping no bytes itself: the caller
/// hands it what it has buffered and keeps the unconsumed tail (an incomplete head or line) for the next call. A body is
/// skipped as it arrives, or copied to a writer the caller gives, so a response of any size needs no more buffer than its
/// head (<see cref="MaxHeadBytes"/>). It frames by Content-Length, chunked transfer coding (extensions and trailers
/// included) or the end of the connection, skips interim (1xx) responses, knows the answers without a body (HEAD, 204,
/// 304) and Connection: close / keep-alive (with HTTP/1.0's default of close).
/// </summary>
/// <remarks>
/// <para>One instance per connection, reused for every response: parsing allocates nothing (only a failure's reason is
/// a string, and a constant one).</para>
/// <para>It replaced three parsers that disagreed; where they did, it takes the strictest reading, because a client that
/// guesses where an answer ends lets a broken or hostile peer's bytes become part of the next answer on the connection
/// (RFC 9112 §6.3, §11.2), and a load generator or a test that accepts what the services should never send hides the
/// bug. So it refuses:</para>
/// <list type="bullet">
/// <item>a status line other than "HTTP/1.0" or "HTTP/1.1", a space, three digits from 100 to 599 (RFC 9110 §15), then a
/// space or nothing — the load generator took any "HTTP/1.x", the fast path any status above 99; and 101, whose protocol
/// none of them speaks;</item>
/// <item>a line not ended by CRLF, a CR, LF or NUL inside a line, or any other control but HTAB in it (RFC 9110 §5.5) —
/// the load generator took a bare LF;</item>
/// <item>obsolete line folding and a field name that is not a token (RFC 9112 §5.1, §5.2) — the fast path refused
/// folding, the load generator only a line without a colon; trailer fields are held to the same rules;</item>
/// <item>a Content-Length that is not digits only, or two that differ (RFC 9110 §8.6) — the fast path took a sign;</item>
/// <item>a Transfer-Encoding other than one "chunked" — this client sends no TE, so a server may apply no other coding
/// (RFC 9112 §6.1, §7.1: and chunked only once); the load generator read such a body to the close;</item>
/// <item>Content-Length with Transfer-Encoding (RFC 9112 §6.3 rule 3: "ought to be handled as an error") — the fast
/// path let chunked decide and closed the connection after it, the load generator let chunked decide;</item>
/// <item>a chunk size that is not 1 to 15 hex digits, optionally followed by white space and an extension, and chunk data
/// not followed by CRLF — the load generator took "5 anything";</item>
/// <item>a head over <see cref="MaxHeadBytes"/> (the load generator's receive buffer; the fast path allowed 64 KB, the
/// tests' client had no bound), a chunk or trailer line over <see cref="MaxLineBytes"/>, and a trailer section over
/// <see cref="MaxHeadBytes"/> (neither before bounded it).</item>
/// </list>
/// <para>And a "Connection: close" in any Connection field ends the connection: the fast path let a later keep-alive
/// field override it.</para>
/// </remarks>
public sealed class HttpResponseParser(bool responsesHaveNoBody = false)
{
    /// <summary>The most a response's status line and headers (and, apart, its trailer section) may take. The answers
    /// the services and their peers send are a few hundred bytes; a caller's buffer of this size always holds a head
    /// the parser accepts, since it fails before one grows past it.</summary>
    public const int MaxHeadBytes = 16 * 1024;

    /// <summary>The longest chunk-size or trailer line, without its CRLF; a real one is a few bytes.</summary>
    public const int MaxLineBytes = 4 * 1024;

    // 18 decimal digits stay below long.MaxValue, so no overflow to check; 15 hex digits are 2^60 bytes, no real chunk.
    private const int MaxLengthDigits = 18;
    private const int MaxChunkSizeDigits = 15;
    private const int MaxRetryAfterDigits = 9;

    /// <summary>Controls a line may not hold: all but HTAB, with CR and LF (a line's end is found before).</summary>
    private static readonly SearchValues<byte> Controls = SearchValues.Create(
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127]);

    /// <summary>tchar (RFC 9110 §5.6.2): what a field name is made of.</summary>
    private static readonly SearchValues<byte> TokenChars =
        SearchValues.Create("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"u8);

    private State _state;
    private long _remaining;
    private int _trailerBytes;

    private enum State
    {
        Head,
        NoBody,
        Body,
        ChunkSize,
        ChunkData,
        ChunkDataEnd,
        Trailers,
        UntilClose,
        Failed,
    }

    /// <summary>True when the requests were HEAD: no response carries a body, whatever its headers say.</summary>
    public bool ResponsesHaveNoBody { get; } = responsesHaveNoBody;

    /// <summary>The head of the response in progress or just completed.</summary>
    public ResponseHead Head { get; private set; }

    /// <summary>The bytes of that head, status line to the empty line: when <see cref="Parse"/> returns
    /// <see cref="ParseStatus.Head"/>, they are the last this many of those it consumed.</summary>
    public int HeadLength { get; private set; }

    /// <summary>Why the last <see cref="ParseStatus.Error"/> happened (a constant phrase, for diagnostics).</summary>
    public string? Error { get; private set; }

    /// <summary>Makes the parser ready for a new connection.</summary>
    public void Reset()
    {
        _state = State.Head;
        _remaining = 0;
        _trailerBytes = 0;
        Head = default;
        HeadLength = 0;
        Error = null;
    }

    /// <summary>
    /// Parses from the start of <paramref name="data"/> until a final response's head ends, the response ends, more
    /// bytes are needed, or the bytes are malformed. <paramref name="consumed"/> is how many bytes the caller may drop;
    /// the rest (an incomplete line, or what follows the head or response) must be given again. Body bytes consumed are
    /// copied to <paramref name="body"/> when one is given, and skipped otherwise.
    /// </summary>
    public ParseStatus Parse(ReadOnlySpan<byte> data, out int consumed, IBufferWriter<byte>? body = null)
    {
        consumed = 0;
        while (true)
        {
            var rest = data[consumed..];
            switch (_state)
            {
                case State.Head:
                {
                    var end = (rest.Length > MaxHeadBytes ? rest[..MaxHeadBytes] : rest).IndexOf("\r\n\r\n"u8);
                    if (end < 0)
                    {
                        // Anything but the start of a status line fails now rather than once a whole head's worth came.
                        var start = Math.Min(rest.Length, 7);
                        return !rest[..start].SequenceEqual("HTTP/1."u8[..start]) ? Fail("it does not begin with an HTTP/1.x status line")
                            : rest.Length >= MaxHeadBytes ? Fail("its status line and headers exceed 16 KB")
                            : ParseStatus.NeedMore;
                    }

                    consumed += end + 4;
                    if (!TryParseHead(rest[..(end + 2)], out var interim))
                    {
                        return ParseStatus.Error;
                    }

                    if (interim)
                    {
                        continue;
                    }

                    HeadLength = end + 4;
                    return ParseStatus.Head;
                }

                case State.NoBody:
                    _state = State.Head;
                    return ParseStatus.Complete;

                case State.Body:
                case State.ChunkData:
                {
                    var take = (int)Math.Min(_remaining, rest.Length);
                    body?.Write(rest[..take]);
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
                    if (rest.Length < 2)
                    {
                        return rest.IsEmpty || rest[0] == (byte)'\r' ? ParseStatus.NeedMore : Fail("a chunk's data is not followed by CRLF");
                    }

                    if (!rest.StartsWith("\r\n"u8))
                    {
                        return Fail("a chunk's data is not followed by CRLF");
                    }

                    consumed += 2;
                    _state = State.ChunkSize;
                    break;

                case State.ChunkSize:
                {
                    var taken = TakeLine(rest, out var line);
                    if (taken <= 0)
                    {
                        return taken == 0 ? ParseStatus.NeedMore : ParseStatus.Error;
                    }

                    if (!TryParseChunkSize(line, out var size))
                    {
                        return Fail("a chunk size is not 1 to 15 hexadecimal digits");
                    }

                    consumed += taken;
                    _remaining = size;
                    _trailerBytes = 0;
                    _state = size == 0 ? State.Trailers : State.ChunkData;
                    break;
                }

                case State.Trailers:
                {
                    var taken = TakeLine(rest, out var line);
                    if (taken <= 0)
                    {
                        return taken == 0 ? ParseStatus.NeedMore : ParseStatus.Error;
                    }

                    _trailerBytes += taken;
                    if (_trailerBytes > MaxHeadBytes)
                    {
                        return Fail("its trailer fields exceed 16 KB");
                    }

                    consumed += taken;
                    if (line.IsEmpty)
                    {
                        _state = State.Head;
                        return ParseStatus.Complete;
                    }

                    if (!TrySplitField(line, out _, out _))
                    {
                        return Fail("a trailer line is not a field");
                    }

                    break;
                }

                case State.UntilClose:
                    body?.Write(rest);
                    consumed = data.Length;
                    return ParseStatus.NeedMore;

                default:
                    return ParseStatus.Error;
            }
        }
    }

    /// <summary>Called when the server closed the connection: true if that ended a response whose body was delimited by
    /// the close (RFC 9112 §6.3, rule 8).</summary>
    public bool CompleteAtEndOfStream()
    {
        if (_state != State.UntilClose)
        {
            return false;
        }

        _state = State.Head;
        return true;
    }

    private ParseStatus Fail(string reason)
    {
        Error = reason;
        _state = State.Failed;
        return ParseStatus.Error;
    }

    /// <summary>The length of the CRLF-ended line at the start of <paramref name="data"/>, with its CRLF; 0 when it has
    /// not all come yet; -1 (and <see cref="Error"/> set) when it is malformed or too long.</summary>
    private int TakeLine(ReadOnlySpan<byte> data, out ReadOnlySpan<byte> line)
    {
        line = default;
        var newline = (data.Length > MaxLineBytes + 2 ? data[..(MaxLineBytes + 2)] : data).IndexOf((byte)'\n');
        if (newline < 0)
        {
            if (data.Length >= MaxLineBytes + 2)
            {
                Fail("a chunk or trailer line exceeds 4 KB");
                return -1;
            }

            return 0;
        }

        line = data[..Math.Max(newline - 1, 0)];
        if (newline == 0 || data[newline - 1] != (byte)'\r' || line.ContainsAny(Controls))
        {
            Fail("a chunk or trailer line does not end with CRLF or holds a control character");
            return -1;
        }

        return newline + 1;
    }

    /// <summary>Parses the status line and the headers that decide framing and persistence.
    /// <paramref name="head"/> ends with the CRLF of its last line.</summary>
    private bool TryParseHead(ReadOnlySpan<byte> head, out bool interim)
    {
        interim = false;
        var lineEnd = head.IndexOf("\r\n"u8);
        var statusLine = head[..lineEnd];

        // "HTTP/1.x SP 3DIGIT [SP reason]"; the reason phrase may be empty, and the space before it absent.
        if (statusLine.Length < 12 || !statusLine.StartsWith("HTTP/1."u8) || statusLine[7] is not ((byte)'0' or (byte)'1')
            || statusLine[8] != (byte)' ' || !IsDigit(statusLine[9]) || !IsDigit(statusLine[10]) || !IsDigit(statusLine[11])
            || (statusLine.Length > 12 && statusLine[12] != (byte)' ') || statusLine.ContainsAny(Controls))
        {
            Fail("its status line is not HTTP/1.0 or HTTP/1.1 with a three-digit status");
            return false;
        }

        var http10 = statusLine[7] == (byte)'0';
        var status = ((statusLine[9] - '0') * 100) + ((statusLine[10] - '0') * 10) + (statusLine[11] - '0');
        if (status is < 100 or > 599)
        {
            // "All valid status codes are within the range of 100 to 599" (RFC 9110 §15): 000 or 701 is no HTTP
            // answer, and counting it as one would put a broken peer's bytes in the status table (found by fuzzing).
            Fail("its status is outside 100-599");
            return false;
        }

        long contentLength = -1;
        var chunked = false;
        var close = false;
        var keepAliveToken = false;
        var retryAfter = 0;
        var fields = head[(lineEnd + 2)..];
        while (!fields.IsEmpty)
        {
            lineEnd = fields.IndexOf("\r\n"u8);
            var line = fields[..lineEnd];
            fields = fields[(lineEnd + 2)..];
            if (!TrySplitField(line, out var name, out var value))
            {
                Fail("a header line is folded, has no name, or holds a control character");
                return false;
            }

            if (Ascii.EqualsIgnoreCase(name, "content-length"u8))
            {
                if (!TryParseDigits(value, MaxLengthDigits, out var length) || (contentLength >= 0 && contentLength != length))
                {
                    Fail("its Content-Length is not one number");
                    return false;
                }

                contentLength = length;
            }
            else if (Ascii.EqualsIgnoreCase(name, "transfer-encoding"u8))
            {
                if (chunked || !Ascii.EqualsIgnoreCase(value, "chunked"u8))
                {
                    Fail("it uses a transfer coding other than chunked once");
                    return false;
                }

                chunked = true;
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
            else if (Ascii.EqualsIgnoreCase(name, "retry-after"u8))
            {
                // Delay-seconds only; an HTTP-date is ignored, as the forwarder did with HttpClient's parsed header.
                retryAfter = TryParseDigits(value, MaxRetryAfterDigits, out var seconds) ? (int)seconds : 0;
            }
        }

        if (chunked && contentLength >= 0)
        {
            Fail("it has both Content-Length and Transfer-Encoding");
            return false;
        }

        if (status < 200)
        {
            if (status == 101)
            {
                Fail("it switches protocols (101)");
                return false;
            }

            interim = true; // 100 Continue, 103 Early Hints: the final response follows
            return true;
        }

        // An HTTP/1.0 message with Transfer-Encoding has faulty framing: the connection closes after it (RFC 9112 §6.1).
        var keepAlive = !close && (!http10 || (keepAliveToken && !chunked));
        BodyFraming framing;
        if (ResponsesHaveNoBody || status is 204 or 304 || contentLength == 0)
        {
            framing = BodyFraming.None;
            _state = State.NoBody;
        }
        else if (chunked)
        {
            framing = BodyFraming.Chunked;
            _state = State.ChunkSize;
        }
        else if (contentLength > 0)
        {
            framing = BodyFraming.ContentLength;
            _state = State.Body;
            _remaining = contentLength;
        }
        else
        {
            framing = BodyFraming.UntilClose;
            _state = State.UntilClose;
            keepAlive = false;
        }

        Head = new ResponseHead(status, framing, contentLength, keepAlive, retryAfter);
        return true;
    }

    /// <summary>A field line's name and value (white space around it trimmed), if it is one: a token, a colon, and a
    /// value without controls but HTAB. A line that starts with white space is obsolete folding.</summary>
    private static bool TrySplitField(ReadOnlySpan<byte> line, out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value)
    {
        var colon = line.IndexOf((byte)':');
        name = colon > 0 ? line[..colon] : default;
        value = colon > 0 ? line[(colon + 1)..].Trim(" \t"u8) : default;
        return colon > 0 && !name.ContainsAnyExcept(TokenChars) && !value.ContainsAny(Controls);
    }

    private static bool TryParseChunkSize(ReadOnlySpan<byte> line, out long size)
    {
        size = 0;
        var digits = 0;
        for (; digits < line.Length; digits++)
        {
            var value = HexValue(line[digits]);
            if (value < 0)
            {
                break;
            }

            if (digits == MaxChunkSizeDigits)
            {
                return false;
            }

            size = (size << 4) | (long)value;
        }

        // chunk-size [BWS ";" chunk-ext]: extensions are ignored.
        var after = line[digits..].TrimStart(" \t"u8);
        return digits > 0 && (after.IsEmpty || after[0] == (byte)';');
    }

    private static bool TryParseDigits(ReadOnlySpan<byte> text, int maxDigits, out long value)
    {
        value = 0;
        if (text.IsEmpty || text.Length > maxDigits)
        {
            return false;
        }

        foreach (var b in text)
        {
            if (!IsDigit(b))
            {
                return false;
            }

            value = (value * 10) + (b - '0');
        }

        return true;
    }

    private static int HexValue(byte b) => b switch
    {
        >= (byte)'0' and <= (byte)'9' => b - '0',
        >= (byte)'a' and <= (byte)'f' => b - 'a' + 10,
        >= (byte)'A' and <= (byte)'F' => b - 'A' + 10,
        _ => -1,
    };

    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';
}
