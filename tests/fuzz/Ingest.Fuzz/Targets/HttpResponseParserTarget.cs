using Ingest.LoadGen.Internal;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// The load generator's HTTP/1.1 response parser (<see cref="HttpResponseParser"/>), fed the way a connection feeds
/// it: unconsumed bytes are kept and given again with the next read. Input: a flags byte (bit 0: the requests were
/// HEAD), a byte for the read size (0: everything in one read, otherwise 1 to 255 bytes per read), then the bytes the
/// server sent. Properties: the parser never claims more bytes than it was given, a completed response always consumed
/// bytes (or the connection's loop would spin), its status is a final one of RFC 9110 (200 to 599, or 1xx never), and
/// how the bytes were split into reads changes nothing.
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

    /// <summary>The responses completed, in order, and how the stream ended, as one comparable string.</summary>
    private static string Feed(HttpResponseParser parser, ReadOnlySpan<byte> stream, int readSize)
    {
        var outcome = new System.Text.StringBuilder();
        var buffered = new List<byte>();
        for (var offset = 0; offset < stream.Length || offset == 0; offset += readSize)
        {
            buffered.AddRange(stream.Slice(offset, Math.Min(readSize, stream.Length - offset)));
            while (true)
            {
                var data = buffered.ToArray();
                var status = parser.Parse(data, out var consumed);
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

                FuzzPropertyException.Check(consumed > 0, "a completed response consumed bytes");
                FuzzPropertyException.Check(parser.StatusCode is >= 200 and <= 599, $"a completed response has a final status, not {parser.StatusCode}");
                outcome.Append(parser.StatusCode).Append(parser.KeepAlive ? "+ " : "- ");
            }

            if (stream.IsEmpty)
            {
                break;
            }
        }

        return outcome.Append(parser.CompleteAtEndOfStream() ? $"{parser.StatusCode} at close" : $"end with {buffered.Count} left").ToString();
    }
}
