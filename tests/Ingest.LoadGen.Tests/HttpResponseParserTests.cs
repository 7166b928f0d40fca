using System.Text;
using Ingest.LoadGen.Internal;

namespace Ingest.LoadGen.Tests;

public sealed class HttpResponseParserTests
{
    private const string ContentLengthResponse =
        "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\nServer: test\r\n\r\nHello, World!";

    private const string ChunkedResponse =
        "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n" +
        "5;name=value\r\nHello\r\n" +
        "1A\r\n, this chunk has 26 bytes\r\n" +
        "0\r\nX-Trailer: yes\r\n\r\n";

    public static TheoryData<string, int, bool> Responses => new()
    {
        { ContentLengthResponse, 200, true },
        { ChunkedResponse, 201, true },
        { "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 404, false },
        { "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", 200, false },
        { "HTTP/1.0 200 OK\r\nContent-Length: 2\r\nConnection: Keep-Alive\r\n\r\nok", 200, true },
        { "HTTP/1.1 204 No Content\r\n\r\n", 204, true },
        { "HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\n\r\n", 304, true },
        { "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: keep-alive, close\r\n\r\nbusy", 503, false },
    };

    [Theory]
    [MemberData(nameof(Responses))]
    public void AResponseInOnePieceIsParsed(string response, int status, bool keepAlive)
    {
        var parsed = Feed(new HttpResponseParser(), response, int.MaxValue);

        Assert.Equal([(status, keepAlive)], parsed.Completed);
        Assert.Equal(0, parsed.Left);
    }

    [Theory]
    [MemberData(nameof(Responses))]
    public void AResponseSplitAtAnyByteIsParsedTheSame(string response, int status, bool keepAlive)
    {
        for (var piece = 1; piece < response.Length; piece++)
        {
            var parsed = Feed(new HttpResponseParser(), response, piece);
            Assert.Equal([(status, keepAlive)], parsed.Completed);
            Assert.Equal(0, parsed.Left);
        }
    }

    [Fact]
    public void PipelinedResponsesInOneReadAreParsedInOrder()
    {
        var parsed = Feed(new HttpResponseParser(), ContentLengthResponse + ChunkedResponse + ContentLengthResponse, int.MaxValue);

        Assert.Equal([(200, true), (201, true), (200, true)], parsed.Completed);
    }

    [Fact]
    public void AResponseToHeadHasNoBodyWhateverItsContentLength()
    {
        var parser = new HttpResponseParser(responsesHaveNoBody: true);
        var parsed = Feed(parser, "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n", int.MaxValue);

        Assert.Equal(2, parsed.Completed.Count);
    }

    [Fact]
    public void ABodyWithoutLengthEndsWithTheConnection()
    {
        var parser = new HttpResponseParser();
        var parsed = Feed(parser, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome bytes until the end", int.MaxValue);

        Assert.Empty(parsed.Completed);
        Assert.True(parser.IsReadingUntilClose);
        Assert.True(parser.CompleteAtEndOfStream());
        Assert.False(parser.KeepAlive);
    }

    [Theory]
    [InlineData("HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/2 200\r\n\r\n")]
    [InlineData("SSH-2.0-OpenSSH\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX")]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n")]
    [InlineData("HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 099\r\n\r\n")]
    [InlineData("HTTP/1.1 600 Beyond\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 701 Fuzzed\r\nContent-Length: 0\r\n\r\n")]
    public void MalformedResponsesAreErrors(string response)
    {
        var parser = new HttpResponseParser();
        var status = parser.Parse(Encoding.ASCII.GetBytes(response), out _);

        Assert.Equal(ParseStatus.Error, status);
        Assert.NotNull(parser.Error);
    }

    /// <summary>Feeds <paramref name="response"/> in pieces the way a connection does: unconsumed bytes are
    /// kept and given again with the next piece.</summary>
    private static (List<(int Status, bool KeepAlive)> Completed, int Left) Feed(HttpResponseParser parser, string response, int pieceSize)
    {
        var bytes = Encoding.ASCII.GetBytes(response);
        var buffered = new List<byte>();
        var completed = new List<(int, bool)>();
        for (var offset = 0; offset < bytes.Length; offset += pieceSize)
        {
            buffered.AddRange(bytes.AsSpan(offset, Math.Min(pieceSize, bytes.Length - offset)));
            while (true)
            {
                var status = parser.Parse(buffered.ToArray(), out var used);
                buffered.RemoveRange(0, used);
                Assert.NotEqual(ParseStatus.Error, status);
                if (status == ParseStatus.NeedMore)
                {
                    break;
                }

                completed.Add((parser.StatusCode, parser.KeepAlive));
            }
        }

        return (completed, buffered.Count);
    }
}
