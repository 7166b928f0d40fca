using System.Net.Sockets;
using Ingest.Core.Forwarding;
using Ingest.Core.Forwarding.Direct;
using Ingest.Core.Serialization;

namespace Ingest.Core.Tests.Direct;

/// <summary>
/// LoopDirect's pool of one loop's connections to one back-end (<see cref="DirectConnectionPool"/>): a kept connection
/// serves the next forward, one past its lifetime or left unusable is replaced, at a connection limit the next forward
/// is pipelined behind the least busy connection (and one taken out of use closes when its last exchange is done), and
/// a failed connect is an <see cref="HttpRequestException"/> that leaves no slot taken.
/// </summary>
public sealed class DirectConnectionPoolTests
{
    private const string Ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    private static readonly byte[] Head = LoopDirectSender.Head(new Uri("http://127.0.0.1:5001/ingest/data"), sharedKey: null);
    private static readonly ForwardPayload Payload = new([], IngestSerializers.Create(SerializerKind.SystemTextJsonSourceGen), Guid.NewGuid());
    private static readonly TimeSpan Long = TimeSpan.FromMinutes(2);

    private readonly List<CannedStream> _opened = [];

    [Fact]
    public async Task AKeptConnectionServesEveryForwardInTurn()
    {
        await using var pool = Pool(0, Long);

        for (var i = 0; i < 3; i++)
        {
            await ExchangeAsync(pool);
        }

        Assert.Single(_opened);
        Assert.Equal(3, _opened[0].Requests.Count);
        Assert.Equal(1, pool.Open);
    }

    [Fact]
    public async Task AConnectionPastItsLifetimeIsClosedAndReplaced()
    {
        await using var pool = Pool(0, TimeSpan.Zero);

        for (var i = 0; i < 3; i++)
        {
            await ExchangeAsync(pool);
        }

        Assert.Equal(3, _opened.Count);
        Assert.All(_opened, stream => Assert.True(stream.Disposed));
        Assert.Equal(0, pool.Open);
    }

    [Fact]
    public async Task AConnectionLeftUnusableIsClosedAndAFreshOneIsOpenedOnRequest()
    {
        await using var pool = Pool(0, Long, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");

        await ExchangeAsync(pool);
        var fresh = await pool.RentAsync(fresh: true, CancellationToken.None);

        Assert.True(_opened[0].Disposed);
        Assert.Equal(2, _opened.Count);
        Assert.Equal(1, pool.Open);
        pool.Close(fresh);
        Assert.Equal(0, pool.Open);
    }

    [Fact]
    public async Task AtTheLimitAForwardGoesBehindTheLeastBusyConnectionWithoutWaiting()
    {
        await using var pool = Pool(2, Long);
        var first = await pool.RentAsync(fresh: false, CancellationToken.None);
        var second = await pool.RentAsync(fresh: false, CancellationToken.None);
        var third = await pool.RentAsync(fresh: false, CancellationToken.None);
        var fourth = await pool.RentAsync(fresh: true, CancellationToken.None);

        Assert.NotSame(first, second);
        Assert.Same(first, third);
        Assert.Same(second, fourth);
        Assert.Equal(2, _opened.Count);
        Assert.Equal(2, pool.Open);

        // Nothing in flight on a connection any more: it waits idle for the next forward, the warmest first.
        pool.Return(second);
        pool.Return(fourth);
        pool.Return(first);
        Assert.Same(second, pool.TryTakeIdle());
        Assert.Null(pool.TryTakeIdle());
        pool.Return(third);
        Assert.Same(first, pool.TryTakeIdle());
    }

    [Fact]
    public async Task AConnectionClosedWithExchangesOnItTakesNoNewOneAndClosesWhenTheLastIsDone()
    {
        await using var pool = Pool(1, Long);
        var held = await pool.RentAsync(fresh: false, CancellationToken.None);
        var behind = await pool.RentAsync(fresh: false, CancellationToken.None);
        Assert.Same(held, behind);

        pool.Close(held);
        Assert.False(_opened[0].Disposed);
        var next = await pool.RentAsync(fresh: false, CancellationToken.None);
        Assert.NotSame(held, next);
        Assert.Equal(2, pool.Open);

        pool.Return(behind);
        Assert.True(_opened[0].Disposed);
        Assert.Equal(1, pool.Open);
    }

    [Fact]
    public async Task AtTheLimitWhileTheConnectionsAreStillOpeningAForwardWaitsForOneAndGoesBehindIt()
    {
        var connected = new TaskCompletionSource<Stream>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var pool = new DirectConnectionPool(_ => new ValueTask<Stream>(connected.Task), 1, Long);

        var opening = pool.RentAsync(fresh: false, CancellationToken.None).AsTask();
        var behind = pool.RentAsync(fresh: false, CancellationToken.None).AsTask();
        await Task.Delay(50);
        Assert.False(behind.IsCompleted);
        Assert.Equal(1, pool.Open);

        connected.SetResult(new CannedStream(Ok, Ok));
        Assert.Same(await opening.WaitAsync(TimeSpan.FromSeconds(10)), await behind.WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.Equal(1, pool.Open);
    }

    [Fact]
    public async Task AFailedConnectIsAConnectionErrorAndTakesNoSlot()
    {
        await using var pool = new DirectConnectionPool(_ => throw new SocketException((int)SocketError.ConnectionRefused), 1, Long);

        var error = await Assert.ThrowsAsync<HttpRequestException>(() => pool.RentAsync(fresh: false, CancellationToken.None).AsTask());

        Assert.Equal(HttpRequestError.ConnectionError, error.HttpRequestError);
        Assert.IsType<SocketException>(error.InnerException);
        Assert.Equal(0, pool.Open);
    }

    private DirectConnectionPool Pool(int maxConnections, TimeSpan lifetime, string answer = Ok) => new(_ =>
    {
        var stream = new CannedStream(Enumerable.Repeat(answer, 10).ToArray());
        _opened.Add(stream);
        return ValueTask.FromResult<Stream>(stream);
    }, maxConnections, lifetime);

    private static async Task ExchangeAsync(DirectConnectionPool pool)
    {
        var connection = await pool.RentAsync(fresh: false, CancellationToken.None);
        Assert.Equal(new BackEndReply(200), await connection.ExchangeAsync(Head, Payload));
        pool.Return(connection);
    }
}
