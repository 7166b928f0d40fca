using System.Buffers.Text;
using System.Text;

namespace Ingest.Storage.Resp;

/// <summary>
/// Parses one RESP2 reply from the front of a buffer. Returns false when the buffer does not yet hold a whole
/// reply (the caller reads more and tries again); throws <see cref="RespProtocolException"/> on bytes that are
/// not RESP2.
/// </summary>
internal static class RespParser
{
    /// <summary>Deepest nesting accepted: Redis' replies nest a few levels (XRANGE: 3).</summary>
    private const int MaxDepth = 32;

    public static bool TryParse(ReadOnlySpan<byte> buffer, out RespReply reply, out int consumed)
    {
        consumed = 0;
        return TryParse(buffer, ref consumed, 0, out reply);
    }

    private static bool TryParse(ReadOnlySpan<byte> buffer, ref int position, int depth, out RespReply reply)
    {
        reply = null!;
        if (depth > MaxDepth)
        {
            throw new RespProtocolException($"Replies nest deeper than {MaxDepth} levels.");
        }

        if (!TryLine(buffer, position, out var line, out var next))
        {
            return false;
        }

        if (line.Length == 0)
        {
            throw new RespProtocolException("Empty reply line.");
        }

        var body = line[1..];
        switch ((char)line[0])
        {
            case '+':
                reply = RespReply.Simple(Encoding.UTF8.GetString(body));
                position = next;
                return true;
            case '-':
                reply = RespReply.Error(Encoding.UTF8.GetString(body));
                position = next;
                return true;
            case ':':
                reply = RespReply.Number(Integer(body));
                position = next;
                return true;
            case '$':
            {
                var length = Integer(body);
                if (length == -1)
                {
                    reply = RespReply.Bulk(null);
                    position = next;
                    return true;
                }

                if (length < 0 || length > int.MaxValue - 2)
                {
                    throw new RespProtocolException($"Bulk string length {length} is invalid.");
                }

                if (buffer.Length - next < length + 2)
                {
                    return false;
                }

                if (buffer[next + (int)length] != '\r' || buffer[next + (int)length + 1] != '\n')
                {
                    throw new RespProtocolException("Bulk string not followed by CRLF.");
                }

                reply = RespReply.Bulk(Encoding.UTF8.GetString(buffer.Slice(next, (int)length)));
                position = next + (int)length + 2;
                return true;
            }

            case '*':
            {
                var count = Integer(body);
                if (count == -1)
                {
                    reply = RespReply.Array(null);
                    position = next;
                    return true;
                }

                if (count < 0 || count > buffer.Length)
                {
                    // Every element takes at least 3 bytes, so more elements than bytes cannot be complete yet —
                    // but a count that large is more likely garbage; negative counts other than -1 certainly are.
                    if (count < 0)
                    {
                        throw new RespProtocolException($"Array length {count} is invalid.");
                    }

                    return false;
                }

                var items = new RespReply[count];
                var at = next;
                for (var i = 0; i < count; i++)
                {
                    if (!TryParse(buffer, ref at, depth + 1, out items[i]))
                    {
                        return false;
                    }
                }

                reply = RespReply.Array(items);
                position = at;
                return true;
            }

            default:
                throw new RespProtocolException($"Unknown reply type '{(char)line[0]}'.");
        }
    }

    private static bool TryLine(ReadOnlySpan<byte> buffer, int start, out ReadOnlySpan<byte> line, out int next)
    {
        var end = buffer[start..].IndexOf("\r\n"u8);
        if (end < 0)
        {
            line = default;
            next = 0;
            return false;
        }

        line = buffer.Slice(start, end);
        next = start + end + 2;
        return true;
    }

    private static long Integer(ReadOnlySpan<byte> text)
    {
        if (!Utf8Parser.TryParse(text, out long value, out var used) || used != text.Length)
        {
            throw new RespProtocolException($"'{Encoding.ASCII.GetString(text)}' is not an integer.");
        }

        return value;
    }
}
