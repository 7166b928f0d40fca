using System.Net;
using System.Net.Sockets;

namespace Ingest.Transports.Tests;

/// <summary>
/// Client connections owned by a transport's loops (what <c>Forwarding:ClientStrategy=LoopDirect</c> forwards over), for
/// every variant of the transports that have such loops: bytes both ways in order, backpressure with a large
/// exchange, the peer's close, a refused connect, and the property the strategy exists for — with the application
/// inline, a read completes on the loop that owns the connection.
/// </summary>
public sealed class LoopConnectionsTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    public static TheoryData<string> LoopVariants() => new(
        TransportVariant.LinuxEpoll.Name,
        TransportVariant.LinuxEpollAioInline.Name,
        TransportVariant.LinuxEpollDirectSend.Name,
        TransportVariant.IoUring.Name,
        TransportVariant.IoUringDeferred.Name,
        TransportVariant.IoUringPollInline.Name);

    [Theory]
    [MemberData(nameof(LoopVariants))]
    public async Task ALoopOwnedConnectionCarriesAMegabyteEachWayInOrderAndSeesThePeerClose(string variantName)
    {
        using var timeout = new CancellationTokenSource(Timeout);
        var variant = Variant(variantName);
        await using var server = await LoopbackServer.StartAsync(variant, ["http://127.0.0.1:0"]);
        using var peer = EchoPeer.Start();
        var loops = server.Loops;
        Assert.Equal(Environment.ProcessorCount, loops.Count);

        for (var loop = 0; loop < loops.Count; loop++)
        {
            await using var stream = await loops.ConnectAsync(loop, peer.EndPoint, timeout.Token);
            var sent = new byte[1024 * 1024];
            for (var i = 0; i < sent.Length; i++)
            {
                sent[i] = (byte)(i % 251);
            }

            // Written while the echo comes back, so both directions fill their buffers at once.
            var writing = Task.Run(async () =>
            {
                for (var offset = 0; offset < sent.Length; offset += 10_000)
                {
                    await stream.WriteAsync(sent.AsMemory(offset, Math.Min(10_000, sent.Length - offset)), timeout.Token);
                }
            }, timeout.Token);

            var received = new byte[sent.Length];
            var total = 0;
            while (total < received.Length)
            {
                var (read, _) = await ReadAndSeeWhereAsync(stream, received.AsMemory(total), server.Loops, timeout.Token);
                Assert.NotEqual(0, read);
                total += read;
            }

            await writing;
            Assert.Equal(sent, received);

            peer.CloseAll();
            Assert.Equal(0, (await ReadAndSeeWhereAsync(stream, new byte[16], server.Loops, timeout.Token)).Read);
        }
    }

    [Theory]
    [MemberData(nameof(LoopVariants))]
    public async Task WithTheApplicationInlineAReadCompletesOnTheLoopThatOwnsTheConnection(string variantName)
    {
        using var timeout = new CancellationTokenSource(Timeout);
        var variant = Variant(variantName);
        var inline = variant.Settings.Values.Contains("Inline");
        await using var server = await LoopbackServer.StartAsync(variant, ["http://127.0.0.1:0"]);
        using var peer = EchoPeer.Start();
        var loops = server.Loops;
        var last = loops.Count - 1;
        await using var stream = await loops.ConnectAsync(last, peer.EndPoint, timeout.Token);

        Assert.Equal(-1, loops.Current);
        var buffer = new byte[4];
        // The read is waiting before the peer can answer: it completes when the loop receives, not synchronously here.
        var reading = ReadAndSeeWhereAsync(stream, buffer, loops, timeout.Token);
        await stream.WriteAsync("ping"u8.ToArray(), timeout.Token);
        var (read, loopAfterRead) = await reading;

        // Inline: the continuation ran where the loop completed the read. Otherwise the thread pool ran it.
        Assert.Equal(inline ? last : -1, loopAfterRead);
        Assert.Equal(4, read);
    }

    [Theory]
    [MemberData(nameof(LoopVariants))]
    public async Task AWaitingReadThatIsCancelledEndsCancelledAndTheNextReadGetsTheBytes(string variantName)
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await using var server = await LoopbackServer.StartAsync(Variant(variantName), ["http://127.0.0.1:0"]);
        using var peer = EchoPeer.Start();
        await using var stream = await server.Loops.ConnectAsync(0, peer.EndPoint, timeout.Token);
        var buffer = new byte[4];

        using (var cancel = new CancellationTokenSource())
        {
            var waiting = stream.ReadAsync(buffer, cancel.Token).AsTask();
            Assert.False(waiting.IsCompleted);
            await cancel.CancelAsync();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
        }

        // The stream's one read in flight is free again; reads that wait and reads that find bytes both work after it.
        // Each read leaves the loop thread it may complete on (inline variants): the test disposes the server at its
        // end, and Kestrel's synchronous disposal would wait on that thread for the loop it blocks.
        for (var round = 0; round < 3; round++)
        {
            var reading = ReadAndSeeWhereAsync(stream, buffer, server.Loops, timeout.Token);
            await stream.WriteAsync("pong"u8.ToArray(), timeout.Token);
            Assert.Equal(4, (await reading).Read);
            Assert.Equal("pong"u8.ToArray(), buffer);
        }

        peer.CloseAll();
        Assert.Equal(0, (await ReadAndSeeWhereAsync(stream, buffer, server.Loops, timeout.Token)).Read);
    }

    [Fact]
    public async Task AConnectToAPortNobodyListensOnFailsWithConnectionRefused()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await using var server = await LoopbackServer.StartAsync(TransportVariant.LinuxEpoll, ["http://127.0.0.1:0"]);
        var closedPort = ClosedPort();

        var error = await Assert.ThrowsAsync<SocketException>(async () =>
            await server.Loops.ConnectAsync(0, new IPEndPoint(IPAddress.Loopback, closedPort), timeout.Token));

        Assert.Equal(SocketError.ConnectionRefused, error.SocketErrorCode);
        Assert.Contains("ECONNREFUSED", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SocketsHasNoLoopsToOwnConnections()
    {
        await using var server = await LoopbackServer.StartAsync(TransportVariant.Sockets, ["http://127.0.0.1:0"]);

        Assert.Equal(0, server.Loops.Count);
        Assert.Equal(-1, server.Loops.Current);
    }

    /// <summary>
    /// Reads once and says which loop (or -1) the continuation after the read ran on, then leaves that thread: with
    /// the application inline, whoever awaits a loop-owned read goes on running on the loop (that is the point), and a
    /// test that then stopped the server from there would wait for its own thread to end.
    /// </summary>
    private static async Task<(int Read, int Loop)> ReadAndSeeWhereAsync(Stream stream, Memory<byte> buffer, LoopConnections loops, CancellationToken cancellationToken)
    {
        var read = await stream.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
        var loop = loops.Current;
        await Task.Yield();
        return (read, loop);
    }

    private static TransportVariant Variant(string name) => name switch
    {
        "LinuxEpoll" => TransportVariant.LinuxEpoll,
        "LinuxEpoll+AIO+Inline" => TransportVariant.LinuxEpollAioInline,
        "LinuxEpoll+DirectSend" => TransportVariant.LinuxEpollDirectSend,
        "IoUring" => TransportVariant.IoUring,
        "IoUring+Deferred" => TransportVariant.IoUringDeferred,
        "IoUring+Poll+Inline" => TransportVariant.IoUringPollInline,
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "Not a variant with loops."),
    };

    private static int ClosedPort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }

    /// <summary>A plain socket peer that echoes every byte back, on its own threads.</summary>
    private sealed class EchoPeer : IDisposable
    {
        private readonly Socket _listener;
        private readonly List<Socket> _accepted = [];
        private readonly Lock _gate = new();

        private EchoPeer(Socket listener) => _listener = listener;

        public EndPoint EndPoint => _listener.LocalEndPoint!;

        public static EchoPeer Start()
        {
            var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            listener.Listen();
            var peer = new EchoPeer(listener);
            _ = peer.AcceptAsync();
            return peer;
        }

        public void CloseAll()
        {
            lock (_gate)
            {
                foreach (var socket in _accepted)
                {
                    socket.Shutdown(SocketShutdown.Both);
                    socket.Dispose();
                }

                _accepted.Clear();
            }
        }

        public void Dispose()
        {
            CloseAll();
            _listener.Dispose();
        }

        private async Task AcceptAsync()
        {
            try
            {
                while (true)
                {
                    var socket = await _listener.AcceptAsync();
                    lock (_gate)
                    {
                        _accepted.Add(socket);
                    }

                    _ = EchoAsync(socket);
                }
            }
            catch (Exception error) when (error is SocketException or ObjectDisposedException)
            {
            }
        }

        private static async Task EchoAsync(Socket socket)
        {
            var buffer = new byte[16 * 1024];
            try
            {
                while (true)
                {
                    var read = await socket.ReceiveAsync(buffer, SocketFlags.None);
                    if (read == 0)
                    {
                        return;
                    }

                    await socket.SendAsync(buffer.AsMemory(0, read), SocketFlags.None);
                }
            }
            catch (Exception error) when (error is SocketException or ObjectDisposedException)
            {
            }
        }
    }
}
