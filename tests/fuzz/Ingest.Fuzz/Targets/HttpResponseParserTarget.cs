using System.Buffers;
using Ingest.Wire.Http1;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// The one HTTP/1.1 response parser (<see cref="HttpResponseParser"/>) that the load generator, the fast path's client
/// (LoopDirect) and the tests' raw client share, fed the way a connection feeds it: unconsumed bytes are kept and given
/// again with the next read, and the body is handed out as the raw client asks for it. Input: a flags byte (bit 0: the
/// requests were HEAD), a byte for the read size (0: everything in one read, otherwise 1 to 255 bytes per read), then the
/// bytes the server sent. Properties: the parser never claims more bytes than it was given; every head consumed bytes
/// and every completed response had a head (or the connection's loop would spin); a head is a final one of RFC 9110
/// (200 to 599, or 1xx never) within the head limit, starting where a status line does, with a framing that agrees with
/// its fields; and how the bytes were split into reads changes nothing, bodies included.
/// </summary>
internal sealed class HttpResponseParserTarget : IFuzzTarget
{
    public string Name => "HttpResponseParser";

    public void Run(ReadOnlySpan<byte> input)
    {
        var head = input.Length > 0 && (input[0] & 1) == 1;
        var readSize = input.Length > 1 ? input[1] : 0;
        var stream = input.Length > 2 ? input[2..] : [];
        var whole = Feed(new HttpResponseParser(head), stream, stream.Length);
        if (readSize != 0)
        {
            var split = Feed(new HttpResponseParser(head), stream, readSize);
            FuzzPropertyException.Check(whole == split, $"reads of {readSize} bytes give the same responses as one read: {whole} vs {split}");
        }
    }

    /// <summary>The responses completed, in order, with a digest of each body, and how the stream ended, as one
    /// comparable string.</summary>
    private static string Feed(HttpResponseParser parser, ReadOnlySpan<byte> stream, int readSize)
    {
        var outcome = new System.Text.StringBuilder();
        var buffered = new List<byte>();
        var body = new ArrayBufferWriter<byte>();
        var inResponse = false;
        for (var offset = 0; offset < stream.Length || offset == 0; offset += readSize)
        {
            buffered.AddRange(stream.Slice(offset, Math.Min(readSize, stream.Length - offset)));
            while (true)
            {
                var data = buffered.ToArray();
                var status = parser.Parse(data, out var consumed, body);
                FuzzPropertyException.Check(consumed >= 0 && consumed <= data.Length, $"consumed {consumed} of {data.Length} bytes");
                buffered.RemoveRange(0, consumed);
                if (status == ParseStatus.Error)
                {
                    FuzzPropertyException.Check(parser.Error is not null, "an error says why");
                    return outcome.Append("error").ToString();
                }

                if (status == ParseStatus.NeedMore)
                {
                    break;
                }

                if (status == ParseStatus.Head)
                {
                    FuzzPropertyException.Check(!inResponse, "a head comes after the previous response completed");
                    FuzzPropertyException.Check(consumed > 0 && parser.HeadLength <= consumed, $"a head of {parser.HeadLength} bytes consumed {consumed}");
                    CheckHead(parser, data.AsSpan(consumed - parser.HeadLength, parser.HeadLength));
                    inResponse = true;
                    continue;
                }

                FuzzPropertyException.Check(inResponse, "a completed response had a head");
                inResponse = false;
                Append(outcome, parser, body);
            }

            if (stream.IsEmpty)
            {
                break;
            }
        }

        if (parser.CompleteAtEndOfStream())
        {
            FuzzPropertyException.Check(inResponse && parser.Head.Framing == BodyFraming.UntilClose, "only a body delimited by the close ends with it");
            Append(outcome.Append("at close "), parser, body);
            return outcome.ToString();
        }

        return outcome.Append($"end with {buffered.Count} left").ToString();
    }

    private static void CheckHead(HttpResponseParser parser, ReadOnlySpan<byte> bytes)
    {
        var head = parser.Head;
        FuzzPropertyException.Check(head.StatusCode is >= 200 and <= 599, $"a head has a final status, not {head.StatusCode}");
        FuzzPropertyException.Check(parser.HeadLength <= HttpResponseParser.MaxHeadBytes, $"a head of {parser.HeadLength} bytes is within the limit");
        FuzzPropertyException.Check(bytes.StartsWith("HTTP/1."u8) && bytes.EndsWith("\r\n\r\n"u8), "a head runs from a status line to an empty line");
        FuzzPropertyException.Check(
            head.Framing switch
            {
                BodyFraming.None => parser.ResponsesHaveNoBody || head.StatusCode is 204 or 304 || head.ContentLength == 0,
                BodyFraming.ContentLength => head.ContentLength > 0,
                BodyFraming.Chunked => head.ContentLength < 0,
                _ => head.ContentLength < 0 && !head.KeepAlive,
            },
            $"the framing {head.Framing} agrees with the head's fields ({head})");
    }

    private static void Append(System.Text.StringBuilder outcome, HttpResponseParser parser, ArrayBufferWriter<byte> body)
    {
        var head = parser.Head;
        FuzzPropertyException.Check(head.Framing != BodyFraming.ContentLength || body.WrittenCount == head.ContentLength,
            $"a body of Content-Length {head.ContentLength} has {body.WrittenCount} bytes");
        FuzzPropertyException.Check(head.Framing != BodyFraming.None || body.WrittenCount == 0, "a response without a body has none");
        var digest = 0u;
        foreach (var b in body.WrittenSpan)
        {
            digest = (digest * 31) + b;
        }

        outcome.Append(head.StatusCode).Append(head.KeepAlive ? '+' : '-').Append(body.WrittenCount).Append(':').Append(digest).Append(' ');
        body.ResetWrittenCount();
    }
}
