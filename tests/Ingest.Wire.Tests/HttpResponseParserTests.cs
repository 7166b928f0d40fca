using System.Buffers;
using System.Text;
using Ingest.Wire.Http1;

namespace Ingest.Wire.Tests;

/// <summary>
/// The one HTTP/1.1 response parser over hand-written answers: every framing, split at any byte, pipelined, the head
/// fields its callers read, bodies handed out when asked, the limits, and everything any of the three parsers it
/// replaced refused (the load generator's, the fast path's, the tests' raw client's).
/// </summary>
public sealed class HttpResponseParserTests
{
    private const string ContentLengthResponse =
        "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\nServer: test\r\n\r\nHello, World!";

    private const string ChunkedResponse =
        "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n" +
        "5;name=value\r\nHello\r\n" +
        "1A \t; x=\"y\"\r\n, this chunk has 26 bytes!\r\n" +
        "0\r\nX-Trailer: yes\r\n\r\n";

    public static TheoryData<string, int, bool, string> Responses => new()
    {
        { ContentLengthResponse, 200, true, "Hello, World!" },
        { ChunkedResponse, 201, true, "Hello, this chunk has 26 bytes!" },
        { "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 404, false, "" },
        { "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", 200, false, "ok" },
        { "HTTP/1.0 200 OK\r\nContent-Length: 2\r\nConnection: Keep-Alive\r\n\r\nok", 200, true, "ok" },
        { "HTTP/1.1 204 No Content\r\n\r\n", 204, true, "" },
        { "HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\n\r\n", 304, true, "" },
        { "HTTP/1.1 200\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 200, true, "abc" },
        { "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: keep-alive, close\r\n\r\nbusy", 503, false, "busy" },
        { "HTTP/1.1 200 OK\r\nConnection: close\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", 200, false, "" },
        { "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 200, false, "" },
    };

    [Theory]
    [MemberData(nameof(Responses))]
    public void AResponseInOnePieceIsParsedAndItsBodyHandedOut(string response, int status, bool keepAlive, string body)
    {
        var parsed = Feed(new HttpResponseParser(), response, int.MaxValue);

        Assert.Equal([(status, keepAlive, body)], parsed.Completed);
        Assert.Equal(0, parsed.Left);
    }

    [Theory]
    [MemberData(nameof(Responses))]
    public void AResponseSplitAtAnyByteIsParsedTheSame(string response, int status, bool keepAlive, string body)
    {
        for (var piece = 1; piece < response.Length; piece++)
        {
            var parsed = Feed(new HttpResponseParser(), response, piece);
            Assert.Equal([(status, keepAlive, body)], parsed.Completed);
            Assert.Equal(0, parsed.Left);
        }
    }

    [Fact]
    public void PipelinedResponsesInOneReadAreParsedInOrder()
    {
        var parsed = Feed(new HttpResponseParser(), ContentLengthResponse + ChunkedResponse + ContentLengthResponse, int.MaxValue);

        Assert.Equal(new[] { 200, 201, 200 }, parsed.Completed.Select(static c => c.Status));
    }

    [Fact]
    public void TheHeadIsReportedWithTheFieldsItsCallersReadBeforeItsBody()
    {
        var parser = new HttpResponseParser();
        var bytes = Encoding.ASCII.GetBytes("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 4\r\n\r\nbusy");

        Assert.Equal(ParseStatus.Head, parser.Parse(bytes, out var consumed));
        Assert.Equal(new ResponseHead(503, BodyFraming.ContentLength, 4, KeepAlive: true, RetryAfterSeconds: 7), parser.Head);
        Assert.Equal(bytes.Length - 4, consumed);
        Assert.Equal(consumed, parser.HeadLength);
        Assert.Equal(ParseStatus.Complete, parser.Parse(bytes.AsSpan(consumed), out var bodyBytes));
        Assert.Equal(4, bodyBytes);
    }

    [Theory]
    [InlineData("Retry-After: Wed, 21 Oct 2026 07:28:00 GMT\r\n", 0)]
    [InlineData("Retry-After: 1234567890\r\n", 0)]
    [InlineData("Retry-After:  120 \r\n", 120)]
    [InlineData("", 0)]
    public void RetryAfterIsReadInDelaySecondsOnly(string field, int seconds)
    {
        var parser = new HttpResponseParser();

        parser.Parse(Encoding.ASCII.GetBytes($"HTTP/1.1 503 Busy\r\n{field}Content-Length: 0\r\n\r\n"), out _);

        Assert.Equal(seconds, parser.Head.RetryAfterSeconds);
    }

    [Fact]
    public void AResponseToHeadHasNoBodyWhateverItsContentLength()
    {
        var parser = new HttpResponseParser(responsesHaveNoBody: true);
        var parsed = Feed(parser, "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n", int.MaxValue);

        Assert.Equal(2, parsed.Completed.Count);
        Assert.Equal(new ResponseHead(200, BodyFraming.None, 13, KeepAlive: true, RetryAfterSeconds: 0), parser.Head);
    }

    [Fact]
    public void ABodyWithoutLengthEndsWithTheConnection()
    {
        var parser = new HttpResponseParser();
        var body = new ArrayBufferWriter<byte>();
        var parsed = Feed(parser, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome bytes until the end", int.MaxValue, body);

        Assert.Empty(parsed.Completed);
        Assert.Equal(0, parsed.Left);
        Assert.Equal(BodyFraming.UntilClose, parser.Head.Framing);
        Assert.False(parser.Head.KeepAlive);
        Assert.True(parser.CompleteAtEndOfStream());
        Assert.Equal("some bytes until the end", Encoding.ASCII.GetString(body.WrittenSpan));
        Assert.False(parser.CompleteAtEndOfStream());
    }

    [Fact]
    public void TheEndOfTheStreamCompletesNothingElse()
    {
        var parser = new HttpResponseParser();
        parser.Parse(Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab"), out _);

        Assert.False(parser.CompleteAtEndOfStream());
    }

    // The union of what the three parsers it replaced refused, and what the strictest reading adds where they differed
    // (HttpResponseParser's remarks say why for each).
    [Theory]
    [InlineData("HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 20 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 200OK\r\n\r\n")]
    [InlineData("HTTP/2 200\r\n\r\n")]
    [InlineData("HTTP/1.2 200 OK\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("SSH-2.0-OpenSSH\r\n\r\n")]
    [InlineData("HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 099\r\n\r\n")]
    [InlineData("HTTP/1.1 600 Beyond\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 701 Fuzzed\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n")]
    [InlineData("HTTP/1.1 200 O\u0001K\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nX-A: a\u0000b\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\n: no name\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nBad Name: v\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\nx")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 1, 1\r\n\r\nx")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 1234567890123456789\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nbody")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 anything\r\nhello\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n;x\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nnot a field\r\n\r\n")]
    public void MalformedResponsesAreErrorsHoweverTheyAreSplit(string response)
    {
        foreach (var piece in new[] { int.MaxValue, 1, 5 })
        {
            var parser = new HttpResponseParser();
            var outcome = Run(parser, Encoding.Latin1.GetBytes(response), piece);

            Assert.True(outcome == ParseStatus.Error, $"{outcome} in pieces of {piece}");
            Assert.NotNull(parser.Error);
        }
    }

    [Fact]
    public void AFailedParserStaysFailedUntilReset()
    {
        var parser = new HttpResponseParser();
        Assert.Equal(ParseStatus.Error, parser.Parse("HTTP/1.1 999 No\r\n\r\n"u8, out _));

        Assert.Equal(ParseStatus.Error, parser.Parse("HTTP/1.1 204 No Content\r\n\r\n"u8, out _));
        parser.Reset();
        Assert.Null(parser.Error);
        Assert.Equal(ParseStatus.Head, parser.Parse("HTTP/1.1 204 No Content\r\n\r\n"u8, out _));
    }

    [Fact]
    public void AHeadUpToTheLimitIsReadAndOneBeyondItFailsBeforeItsEnd()
    {
        var fits = Head(HttpResponseParser.MaxHeadBytes);
        var parser = new HttpResponseParser();
        Assert.Equal(ParseStatus.Head, parser.Parse(fits, out var consumed));
        Assert.Equal(fits.Length, consumed);

        // One byte more: refused once the limit's worth has come, without waiting for the end of the head.
        var beyond = Head(HttpResponseParser.MaxHeadBytes + 1);
        Assert.Equal(ParseStatus.NeedMore, new HttpResponseParser().Parse(beyond.AsSpan(0, HttpResponseParser.MaxHeadBytes - 1), out _));
        var refused = new HttpResponseParser();
        Assert.Equal(ParseStatus.Error, refused.Parse(beyond.AsSpan(0, HttpResponseParser.MaxHeadBytes), out _));
        Assert.Contains("exceed", refused.Error, StringComparison.Ordinal);
    }

    [Fact]
    public void ChunkAndTrailerLinesAndTheTrailerSectionAreBounded()
    {
        const string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        var extension = new string('e', HttpResponseParser.MaxLineBytes);
        var longExtension = Encoding.ASCII.GetBytes(chunked + "1;" + extension + "\r\nx\r\n0\r\n\r\n");
        Assert.Equal(ParseStatus.Error, Run(new HttpResponseParser(), longExtension, int.MaxValue));

        var fits = Encoding.ASCII.GetBytes(chunked + "1;" + extension[2..] + "\r\nx\r\n0\r\n\r\n");
        Assert.Equal(ParseStatus.Complete, Run(new HttpResponseParser(), fits, int.MaxValue));

        var trailer = "X-T: " + new string('t', 1000) + "\r\n";
        var manyTrailers = Encoding.ASCII.GetBytes(chunked + "0\r\n" + string.Concat(Enumerable.Repeat(trailer, 20)) + "\r\n");
        var parser = new HttpResponseParser();
        Assert.Equal(ParseStatus.Error, Run(parser, manyTrailers, 100));
        Assert.Contains("trailer", parser.Error, StringComparison.Ordinal);
    }

    [Fact]
    public void ParsingPipelinedResponsesAllocatesNothing()
    {
        var parser = new HttpResponseParser();
        var stream = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat(ContentLengthResponse + ChunkedResponse, 50)));
        Run(parser, stream, int.MaxValue);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var outcome = Run(parser, stream, 7);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(ParseStatus.Complete, outcome);
        Assert.Equal(0, allocated);
    }

    /// <summary>A head of exactly <paramref name="length"/> bytes, padded with one header.</summary>
    private static byte[] Head(int length)
    {
        const string start = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: ";
        return Encoding.ASCII.GetBytes(start + new string('p', length - start.Length - 4) + "\r\n\r\n");
    }

    /// <summary>Feeds <paramref name="response"/> in pieces the way a connection does: unconsumed bytes are kept and given
    /// again with the next piece. Every response completed, with the body handed out, and the bytes left.</summary>
    private static (List<(int Status, bool KeepAlive, string Body)> Completed, int Left) Feed(
        HttpResponseParser parser, string response, int pieceSize, ArrayBufferWriter<byte>? body = null)
    {
        var bytes = Encoding.ASCII.GetBytes(response);
        var buffered = new List<byte>();
        var completed = new List<(int, bool, string)>();
        body ??= new ArrayBufferWriter<byte>();
        for (var offset = 0; offset < bytes.Length; offset += pieceSize)
        {
            buffered.AddRange(bytes.AsSpan(offset, Math.Min(pieceSize, bytes.Length - offset)));
            while (true)
            {
                var status = parser.Parse(buffered.ToArray(), out var used, body);
                buffered.RemoveRange(0, used);
                Assert.NotEqual(ParseStatus.Error, status);
                if (status == ParseStatus.NeedMore)
                {
                    break;
                }

                if (status == ParseStatus.Complete)
                {
                    completed.Add((parser.Head.StatusCode, parser.Head.KeepAlive, Encoding.ASCII.GetString(body.WrittenSpan)));
                    body.ResetWrittenCount();
                }
            }
        }

        return (completed, buffered.Count);
    }

    /// <summary>Feeds <paramref name="stream"/> in pieces from one buffer, as a connection does, without allocating: the
    /// last status other than NeedMore and Head (Error stops the feed), or NeedMore if there was none.</summary>
    private static ParseStatus Run(HttpResponseParser parser, byte[] stream, int pieceSize)
    {
        var last = ParseStatus.NeedMore;
        var start = 0;
        for (var end = Math.Min(pieceSize, stream.Length); ; end = (int)Math.Min((long)end + pieceSize, stream.Length))
        {
            while (true)
            {
                var status = parser.Parse(stream.AsSpan(start, end - start), out var used);
                start += used;
                if (status is ParseStatus.NeedMore or ParseStatus.Error)
                {
                    last = status == ParseStatus.Error ? status : last;
                    break;
                }

                last = status == ParseStatus.Complete ? status : last;
            }

            if (last == ParseStatus.Error || end == stream.Length)
            {
                return last;
            }
        }
    }
}
