using Ingest.Core.Events;
using Ingest.Core.Forwarding;
using Ingest.Core.Forwarding.Direct;
using Ingest.Core.Serialization;

namespace Ingest.Core.Tests.Direct;

/// <summary>
/// Exchanges pipelined on one <see cref="DirectConnection"/> (what LoopDirect's pool does at its connection limit),
/// against a back-end the test plays byte by byte: every request goes out before any answer, each exchange gets its
/// own answer in the order written, whether the answers come in one read or split anywhere; a failure fails every
/// exchange in flight, as stale when the back-end had answered nothing of them; a deadline aborts all of them, and a
/// caller that goes away while others share the connection does not.
/// </summary>
public sealed class PipelinedExchangeTests
{
    private const string Ok = "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"persisted\":1}";
    private const string Unavailable = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n";
    private const string Created = "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
    private static readonly byte[] Head = LoopDirectSender.Head(new Uri("http://127.0.0.1:5001/ingest/data"), sharedKey: null);
    private static readonly IIngestSerializer Serializer = IngestSerializers.Create(SerializerKind.SystemTextJsonSourceGen);

    [Theory]
    [InlineData(0)]
    [InlineData(30)]
    [InlineData(75)]
    [InlineData(120)]
    public async Task ExchangesWrittenBehindOneAnotherGetTheirOwnAnswersInOrderHoweverTheAnswersAreSplit(int split)
    {
        var stream = new DuplexPipeStream();
        await using var connection = new DirectConnection(stream);
        var keys = Enumerable.Range(0, 3).Select(_ => Guid.NewGuid()).ToArray();

        var exchanges = keys.Select(key => connection.ExchangeAsync(Head, Payload(key)).AsTask()).ToArray();

        // Every request is out before any answer, in the order the exchanges started.
        var requests = await stream.ReadRequestsAsync(3);
        Assert.Equal(keys.Select(k => k.ToString("N")), requests.Select(r => r.Split("Idempotency-Key: ")[1][..32]));
        Assert.All(exchanges, e => Assert.False(e.IsCompleted));

        const string answers = Ok + Unavailable + Created;
        if (split > 0)
        {
            await stream.AnswerAsync(answers[..split]);
            await Task.Delay(20);
        }

        await stream.AnswerAsync(answers[split..]);
        var replies = await Task.WhenAll(exchanges).WaitAsync(TimeSpan.FromSeconds(10));

        Assert.Equal([new BackEndReply(200), new BackEndReply(503, 7), new BackEndReply(201)], replies);
        Assert.Equal(3, connection.Exchanges);
        Assert.True(connection.Reusable);

        // And the connection carries on, one exchange at a time again.
        var next = connection.ExchangeAsync(Head, Payload(Guid.NewGuid())).AsTask();
        await stream.ReadRequestsAsync(4);
        await stream.AnswerAsync(Ok);
        Assert.Equal(200, (await next.WaitAsync(TimeSpan.FromSeconds(10))).Status);
    }

    [Fact]
    public async Task ABackEndThatClosesAfterAnAnswerLeavesTheExchangesBehindItStaleAndTheConnectionUnusable()
    {
        var (stream, connection, exchanges) = await PipelinedAsync(3);
        await using var _ = connection;

        await stream.AnswerAsync(Ok);
        stream.End();

        Assert.Equal(200, (await exchanges[0].WaitAsync(TimeSpan.FromSeconds(10))).Status);
        await Assert.ThrowsAsync<StaleConnectionException>(() => exchanges[1]);
        await Assert.ThrowsAsync<StaleConnectionException>(() => exchanges[2]);
        Assert.False(connection.Reusable);
    }

    [Fact]
    public async Task AnAnswerThatClosesTheConnectionLeavesTheExchangesBehindItStale()
    {
        var (stream, connection, exchanges) = await PipelinedAsync(2);
        await using var _ = connection;

        await stream.AnswerAsync("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");

        Assert.Equal(200, (await exchanges[0].WaitAsync(TimeSpan.FromSeconds(10))).Status);
        await Assert.ThrowsAsync<StaleConnectionException>(() => exchanges[1]);
        Assert.False(connection.Reusable);
    }

    [Fact]
    public async Task AnAnswerItCannotFrameFailsItsExchangeAndEveryOneBehindIt()
    {
        var (stream, connection, exchanges) = await PipelinedAsync(3);
        await using var _ = connection;

        await stream.AnswerAsync(Ok + "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n");

        Assert.Equal(200, (await exchanges[0].WaitAsync(TimeSpan.FromSeconds(10))).Status);
        Assert.Equal(HttpRequestError.InvalidResponse, (await Assert.ThrowsAsync<HttpRequestException>(() => exchanges[1])).HttpRequestError);
        await Assert.ThrowsAsync<HttpRequestException>(() => exchanges[2]);
        Assert.False(connection.Reusable);
    }

    [Fact]
    public async Task OneExchangePastItsDeadlineAbortsEveryExchangeOnTheConnection()
    {
        var stream = new DuplexPipeStream();
        await using var connection = new DirectConnection(stream);
        var first = connection.ExchangeAsync(Head, Payload(Guid.NewGuid()), deadline: 5_000).AsTask();
        var second = connection.ExchangeAsync(Head, Payload(Guid.NewGuid()), deadline: 1_000).AsTask();
        await stream.ReadRequestsAsync(2);

        Assert.False(connection.AbortIfDue(now: 999));
        Assert.True(connection.AbortIfDue(now: 1_000));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => first);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => second);
        Assert.True(connection.Aborted);
        Assert.False(connection.Reusable);
    }

    [Fact]
    public async Task ACallerThatGoesAwayWhileOthersShareTheConnectionLeavesItsExchangeToItsAnswer()
    {
        using var gone = new CancellationTokenSource();
        var stream = new DuplexPipeStream();
        await using var connection = new DirectConnection(stream);
        var first = connection.ExchangeAsync(Head, Payload(Guid.NewGuid()), deadline: long.MaxValue, gone.Token).AsTask();
        var second = connection.ExchangeAsync(Head, Payload(Guid.NewGuid()), deadline: long.MaxValue).AsTask();
        await stream.ReadRequestsAsync(2);

        await gone.CancelAsync();
        Assert.False(connection.AbortIfDue(now: 0));

        await stream.AnswerAsync(Ok + Ok);
        Assert.Equal(200, (await first.WaitAsync(TimeSpan.FromSeconds(10))).Status);
        Assert.Equal(200, (await second.WaitAsync(TimeSpan.FromSeconds(10))).Status);
        Assert.True(connection.Reusable);
    }

    // Exchanges started one after the other without waiting, each request out before any answer.
    private static async Task<(DuplexPipeStream Stream, DirectConnection Connection, Task<BackEndReply>[] Exchanges)> PipelinedAsync(int count)
    {
        var stream = new DuplexPipeStream();
        var connection = new DirectConnection(stream);
        var exchanges = Enumerable.Range(0, count).Select(_ => connection.ExchangeAsync(Head, Payload(Guid.NewGuid())).AsTask()).ToArray();
        await stream.ReadRequestsAsync(count);
        return (stream, connection, exchanges);
    }

    private static ForwardPayload Payload(Guid key) =>
        new([new IngestEvent { Type = EventType.Log, Source = "test", Level = "info", Message = "pipelined" }], Serializer, key);
}
