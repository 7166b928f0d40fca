using System.Text;
using CsCheck;
using Ingest.Core.Events;
using Ingest.Core.Forwarding;
using Ingest.Core.Forwarding.Direct;
using Ingest.Core.Serialization;

namespace Ingest.Core.Tests.Direct;

/// <summary>
/// LoopDirect's HTTP/1.1 exchange (<see cref="DirectConnection"/>) against scripted back-ends: the exact bytes of a
/// forward, every framing of an answer (Content-Length, chunked with extensions and trailers, up to the close, none),
/// answers split into single bytes, interim answers, what makes a connection reusable or not, a stale kept connection
/// told apart from one that failed, answers it must refuse — and, as a property, any bytes at all as an answer end in
/// a reply or an <see cref="HttpRequestException"/>, never another exception.
/// </summary>
public sealed class DirectConnectionTests
{
    private const string Ok = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"persisted\":1}";
    private const string Key = "0123456789abcdef0123456789abcdef";

    // A message outside ASCII: the Content-Length counts the body's bytes, whatever the serializer escapes.
    private static readonly ForwardPayload Payload = new(
        [new IngestEvent { Type = EventType.Log, Source = "test", Level = "info", Message = "ü ok" }],
        IngestSerializers.Create(SerializerKind.SystemTextJsonSourceGen),
        Guid.ParseExact(Key, "N"));

    private static readonly byte[] Body = BodyOf(Payload);
    private static readonly byte[] Head = LoopDirectSender.Head(new Uri("http://127.0.0.1:5001/ingest/data"), sharedKey: null);

    [Fact]
    public async Task AForwardIsOneRequestWithTheKeyTheLengthAndTheBodyAndAKeptConnectionServesTheNext()
    {
        var stream = new CannedStream(Ok, Ok);
        await using var connection = new DirectConnection(stream);

        var first = await connection.ExchangeAsync(Head, Payload);
        Assert.True(connection.Reusable);
        var second = await connection.ExchangeAsync(Head, Payload);

        Assert.Equal(new BackEndReply(200), first);
        Assert.Equal(new BackEndReply(200), second);
        Assert.Equal(2, connection.Exchanges);
        Assert.Equal(
            "POST /ingest/data HTTP/1.1\r\nHost: 127.0.0.1:5001\r\nContent-Type: application/json\r\n" +
            $"Idempotency-Key: {Key}\r\nContent-Length: {Body.Length}\r\n\r\n" + Encoding.ASCII.GetString(Body),
            stream.Requests[0]);
    }

    [Fact]
    public async Task ABodyLargerThanTheConnectionsBufferIsWrittenWholeAndTheNextRequestOnItIsExactToo()
    {
        // Larger than the connection's first buffer, so the serializer makes it grow while it writes the body.
        var events = Enumerable.Range(0, 100)
            .Select(i => new IngestEvent { Type = EventType.Log, Source = "test", Level = "info", Message = $"event {i} of a large batch" })
            .ToList();
        var large = new ForwardPayload(events, IngestSerializers.Create(SerializerKind.SystemTextJsonSourceGen), Guid.NewGuid());
        var stream = new CannedStream(Ok, Ok);
        await using var connection = new DirectConnection(stream);

        await connection.ExchangeAsync(Head, large);
        await connection.ExchangeAsync(Head, Payload);

        var body = BodyOf(large);
        Assert.True(body.Length > 4096);
        Assert.Equal(
            "POST /ingest/data HTTP/1.1\r\nHost: 127.0.0.1:5001\r\nContent-Type: application/json\r\n" +
            $"Idempotency-Key: {large.KeyText()}\r\nContent-Length: {body.Length}\r\n\r\n" + Encoding.ASCII.GetString(body),
            stream.Requests[0]);
        Assert.EndsWith($"Idempotency-Key: {Key}\r\nContent-Length: {Body.Length}\r\n\r\n" + Encoding.ASCII.GetString(Body), stream.Requests[1]);
    }

    [Fact]
    public void TheSharedKeyTravelsInEveryRequestAndAKeyThatCannotBeAHeaderIsRefused()
    {
        var head = Encoding.ASCII.GetString(LoopDirectSender.Head(new Uri("http://[::1]:80/ingest/data"), "s3cret"));

        Assert.Equal("POST /ingest/data HTTP/1.1\r\nHost: [::1]\r\nContent-Type: application/json\r\nX-Ingest-Key: s3cret\r\nIdempotency-Key: ", head);
        Assert.Throws<InvalidOperationException>(() => LoopDirectSender.Head(new Uri("http://127.0.0.1/ingest/data"), "a\r\nInjected: 1"));
    }

    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nX-Trailer: t\r\n\r\n", 200, 0)]
    [InlineData("HTTP/1.1 200 OK\r\ntransfer-encoding: CHUNKED\r\n\r\n0\r\n\r\n", 200, 0)]
    [InlineData("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 2\r\n\r\n{}", 503, 7)]
    [InlineData("HTTP/1.1 503 Service Unavailable\r\nRetry-After: Wed, 21 Oct 2026 07:28:00 GMT\r\nContent-Length: 0\r\n\r\n", 503, 0)]
    [InlineData("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" + Ok, 200, 0)]
    [InlineData("HTTP/1.1 204 No Content\r\nContent-Length: 99\r\n\r\n", 204, 0)]
    [InlineData("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", 200, 0)]
    [InlineData("HTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nbad", 400, 0)]
    public async Task EveryFramingIsReadToItsEndEvenOneByteAtATimeAndLeavesTheConnectionReusable(string answer, int status, int retryAfter)
    {
        foreach (var readSize in new[] { int.MaxValue, 1, 7 })
        {
            var stream = new CannedStream(answer, Ok) { ReadSize = readSize };
            await using var connection = new DirectConnection(stream);

            Assert.Equal(new BackEndReply(status, retryAfter), await connection.ExchangeAsync(Head, Payload));
            Assert.True(connection.Reusable, $"reusable after {answer} read {readSize} bytes at a time");
            Assert.Equal(new BackEndReply(200), await connection.ExchangeAsync(Head, Payload));
        }
    }

    // The fast path's answer side on the hot path: once a connection has carried one exchange (its buffers grown, the
    // serializer's writer made), an exchange allocates nothing, whatever the framing and however the answer is split
    // into reads (a split answer goes through the awaiting path, which the stream here completes at once).
    [Theory]
    [InlineData(Ok, int.MaxValue)]
    [InlineData(Ok, 7)]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nX-Trailer: t\r\n\r\n", 3)]
    [InlineData("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 2\r\n\r\n{}", int.MaxValue)]
    public async Task AnExchangeOnAKeptConnectionAllocatesNothing(string answer, int readSize)
    {
        await using var connection = new DirectConnection(new CannedStream(answer) { ReadSize = readSize, RepeatsLastAnswer = true });
        var expected = await connection.ExchangeAsync(Head, Payload);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var same = 0;
        for (var i = 0; i < 100; i++)
        {
            same += await connection.ExchangeAsync(Head, Payload) == expected && connection.Reusable ? 1 : 0;
        }

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(100, same);
        Assert.Equal(0, allocated);
    }

    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\n\r\nthe body runs to the close")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n")]
    [InlineData("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")]
    public async Task AnAnswerThatEndsTheConnectionOrOverrunsItLeavesItUnusable(string answer)
    {
        await using var connection = new DirectConnection(new CannedStream(answer));

        Assert.Equal(200, (await connection.ExchangeAsync(Head, Payload)).Status);
        Assert.False(connection.Reusable);
    }

    [Fact]
    public async Task HttpOneZeroWithKeepAliveStaysOpen()
    {
        await using var connection = new DirectConnection(new CannedStream("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n"));

        await connection.ExchangeAsync(Head, Payload);

        Assert.True(connection.Reusable);
    }

    [Theory]
    [InlineData("HTTP/2 200 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 20 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 200OK\r\n\r\n")]
    [InlineData("HTTP/1.1 099 Low\r\n\r\n")]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\n: no name\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nbody")]
    [InlineData("HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 600 Beyond\r\nContent-Length: 0\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nabcde")]
    public async Task AnAnswerItCannotFrameWithCertaintyFailsAsAnInvalidResponse(string answer)
    {
        await using var connection = new DirectConnection(new CannedStream(answer));

        var error = await Assert.ThrowsAsync<HttpRequestException>(() => connection.ExchangeAsync(Head, Payload).AsTask());

        Assert.Equal(HttpRequestError.InvalidResponse, error.HttpRequestError);
        Assert.False(connection.Reusable);
    }

    [Fact]
    public async Task HeadersBeyondTheLimitAreRefusedWithoutReadingForever()
    {
        var answer = "HTTP/1.1 200 OK\r\n" + string.Concat(Enumerable.Repeat("X-Padding: " + new string('p', 1000) + "\r\n", 80)) + "\r\n";
        await using var connection = new DirectConnection(new CannedStream(answer));

        var error = await Assert.ThrowsAsync<HttpRequestException>(() => connection.ExchangeAsync(Head, Payload).AsTask());

        Assert.Equal(HttpRequestError.InvalidResponse, error.HttpRequestError);
        Assert.Contains("exceed", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"pers")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Le")]
    public async Task AnAnswerCutShortFailsAsEndedNotAsStale(string answer)
    {
        await using var connection = new DirectConnection(new CannedStream(Ok, answer));
        await connection.ExchangeAsync(Head, Payload);

        var error = await Assert.ThrowsAsync<HttpRequestException>(() => connection.ExchangeAsync(Head, Payload).AsTask());

        Assert.Equal(HttpRequestError.ResponseEnded, error.HttpRequestError);
    }

    [Fact]
    public async Task AKeptConnectionClosedBeforeAnyAnswerIsStaleAndANewOneThatIsClosedHasFailed()
    {
        await using var kept = new DirectConnection(new CannedStream(Ok));
        await kept.ExchangeAsync(Head, Payload);
        await Assert.ThrowsAsync<StaleConnectionException>(() => kept.ExchangeAsync(Head, Payload).AsTask());

        await using var fresh = new DirectConnection(new CannedStream());
        var error = await Assert.ThrowsAsync<HttpRequestException>(() => fresh.ExchangeAsync(Head, Payload).AsTask());
        Assert.Equal(HttpRequestError.ResponseEnded, error.HttpRequestError);
    }

    [Fact]
    public async Task AStreamThatFailsIsAnHttpRequestExceptionOrStaleOnAKeptConnection()
    {
        var stream = new CannedStream(Ok);
        await using var connection = new DirectConnection(stream);
        await connection.ExchangeAsync(Head, Payload);
        await stream.DisposeAsync();

        await Assert.ThrowsAsync<StaleConnectionException>(() => connection.ExchangeAsync(Head, Payload).AsTask());
        await using var failed = new DirectConnection(stream);
        var error = await Assert.ThrowsAsync<HttpRequestException>(() => failed.ExchangeAsync(Head, Payload).AsTask());
        Assert.Equal(HttpRequestError.Unknown, error.HttpRequestError);
    }

    [Fact]
    public async Task AnExchangePastItsDeadlineIsCancelledWhereItWaitsAndItsConnectionIsNotReused()
    {
        var connection = new DirectConnection(new CannedStream { Silent = true });
        var exchange = connection.ExchangeAsync(Head, Payload, deadline: 1_000).AsTask();

        Assert.False(connection.AbortIfDue(now: 999));
        Assert.False(exchange.IsCompleted);
        Assert.True(connection.AbortIfDue(now: 1_000));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => exchange);
        Assert.True(connection.Aborted);
        Assert.False(connection.Reusable);
        Assert.False(connection.AbortIfDue(now: 2_000));
    }

    [Fact]
    public async Task AnExchangeWhoseCallerWentAwayIsCancelledBeforeItsDeadline()
    {
        using var caller = new CancellationTokenSource();
        var connection = new DirectConnection(new CannedStream { Silent = true });
        var exchange = connection.ExchangeAsync(Head, Payload, deadline: long.MaxValue, caller.Token).AsTask();

        Assert.False(connection.AbortIfDue(now: 0));
        await caller.CancelAsync();
        Assert.True(connection.AbortIfDue(now: 0));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => exchange);
    }

    [Fact]
    public async Task AnExchangeAnsweredInTimeIsNeverAbortedAndItsConnectionServesTheNext()
    {
        var connection = new DirectConnection(new CannedStream(Ok, Ok));
        Assert.Equal(200, (await connection.ExchangeAsync(Head, Payload, deadline: 1_000)).Status);

        Assert.False(connection.AbortIfDue(now: 5_000));
        Assert.False(connection.Aborted);
        Assert.True(connection.Reusable);
        Assert.Equal(200, (await connection.ExchangeAsync(Head, Payload)).Status);
    }

    [Fact]
    public void AnyBytesAsAnAnswerEndInAReplyOrAnHttpRequestException()
    {
        string[] tokens = ["HTTP/1.1 ", "HTTP/1.0 ", "200 OK", "503", " ", "\r\n", "\r\n\r\n", "Content-Length: ", "Transfer-Encoding: chunked",
            "Connection: close", "Retry-After: ", "0", "5", "ffff", ";x", ":", "\t"];
        var piece = Gen.OneOf(
            Gen.Int[0, tokens.Length - 1].Select(i => tokens[i]),
            Gen.Char.Array[0, 8].Select(chars => new string(chars)));
        var answer = piece.Array[0, 24].Select(string.Concat);

        Gen.Select(answer, Gen.Int[1, 9]).Sample(sample =>
        {
            var (text, readSize) = sample;
            var stream = new CannedStream() { ReadSize = readSize };
            stream.Answers.Enqueue(Encoding.Latin1.GetBytes(text));
            var connection = new DirectConnection(stream);
            try
            {
                var reply = connection.ExchangeAsync(Head, Payload).AsTask().GetAwaiter().GetResult();
                return reply.Status is >= 200 and <= 999;
            }
            catch (HttpRequestException)
            {
                return true;
            }
        }, iter: 5_000);
    }

    /// <summary>The bytes the serializer writes for <paramref name="payload"/>, as any sender would send them.</summary>
    internal static byte[] BodyOf(ForwardPayload payload)
    {
        var output = new System.Buffers.ArrayBufferWriter<byte>();
        payload.WriteBody(output);
        return output.WrittenSpan.ToArray();
    }
}
