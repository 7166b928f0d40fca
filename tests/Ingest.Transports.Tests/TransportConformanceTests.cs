using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;

namespace Ingest.Transports.Tests;

/// <summary>
/// The conformance suite every transport passes: one derived class per transport, same tests, real Kestrel on
/// loopback, raw sockets and HttpClient as clients.
/// </summary>
public abstract class TransportConformanceTests(TransportServerFixture fixture)
{
    private const int PipelineDepth = 16;
    private const int ConcurrentConnections = 1000;
    private const int MaxEchoSize = 1024 * 1024;

    /// <summary>The end of /hello's response on the wire: Kestrel sends a string result chunked.</summary>
    private const string HelloChunked = "\r\n5\r\nhello\r\n0\r\n\r\n";

    private static TimeSpan Timeout => TimeSpan.FromSeconds(60);

    private TransportVariant Variant => fixture.Variant;

    [TransportFact]
    public async Task TheConfiguredTransportIsTheOneServing()
    {
        Assert.Equal(Variant.Kind, fixture.Server.Transport.Effective);
        Assert.Null(fixture.Server.Transport.FallbackReason);
        Assert.Equal(Variant.Kind.ToString(), await fixture.Client.GetStringAsync(fixture.Url("/transport")));
    }

    [TransportFact]
    public async Task ManyRequestsShareOneKeepAliveConnection()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await using var connection = await RawHttpConnection.ConnectAsync(fixture.IPv4, timeout.Token);
        for (var i = 0; i < 500; i++)
        {
            await connection.SendAsync(RawHttpConnection.Get($"/seq/{i}"), timeout.Token);
            var response = await connection.ReadResponseAsync(timeout.Token);
            Assert.NotNull(response);
            Assert.Equal(200, response.Status);
            Assert.Equal(i.ToString(CultureInfo.InvariantCulture), response.BodyText);
        }
    }

    /// <summary>
    /// Kestrel disposes a connection right after a response it must close (here <c>Connection: close</c>): the transport
    /// must still send every byte of it. The archived Red Hat transport on .NET 10 does not (docs/transports.md).
    /// </summary>
    [TransportFact]
    public async Task ResponsesBeforeConnectionCloseArriveWhole()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        var lost = await ClosingRequests.CountLostAsync(fixture.IPv4, timeout.Token);
        Assert.True(lost == 0, $"{lost} of {ClosingRequests.Count} Connection: close requests got an empty or partial reply: the transport dropped the response queued when Kestrel disposed the connection.");
    }

    [TransportFact]
    public async Task PipelinedRequestsAreAnsweredInOrder()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await using var connection = await RawHttpConnection.ConnectAsync(fixture.IPv4, timeout.Token);
        for (var batch = 0; batch < 50; batch++)
        {
            var requests = new StringBuilder();
            for (var i = 0; i < PipelineDepth; i++)
            {
                requests.Append(RawHttpConnection.Get($"/seq/{(batch * PipelineDepth) + i}"));
            }

            // All 16 requests in one write: the server sees them in one or a few receives.
            await connection.SendAsync(requests.ToString(), timeout.Token);
            for (var i = 0; i < PipelineDepth; i++)
            {
                var response = await connection.ReadResponseAsync(timeout.Token);
                Assert.NotNull(response);
                Assert.Equal(((batch * PipelineDepth) + i).ToString(CultureInfo.InvariantCulture), response.BodyText);
            }
        }
    }

    [TransportTheory]
    [InlineData(0, false)]
    [InlineData(1024, false)]
    [InlineData(1024 * 1024, false)]
    [InlineData(16 * 1024 * 1024, true)]
    public async Task RequestBodiesArriveIntact(int size, bool chunked)
    {
        var body = new byte[size];
        new Random(size).NextBytes(body);
        var expectedHash = $"{Convert.ToHexString(SHA256.HashData(body))}:{size}";

        using var hashRequest = BodyRequest("/hash", body, chunked);
        using var hashResponse = await fixture.Client.SendAsync(hashRequest);
        hashResponse.EnsureSuccessStatusCode();
        Assert.Equal(expectedHash, await hashResponse.Content.ReadAsStringAsync());

        // HttpClient reads an HTTP/1.1 response only after sending the whole body, so an echo larger than the
        // loopback socket buffers would deadlock client and server alike: hashing covers the 16 MiB case.
        if (size > MaxEchoSize)
        {
            return;
        }

        using var echoRequest = BodyRequest("/echo", body, chunked);
        using var echoResponse = await fixture.Client.SendAsync(echoRequest);
        echoResponse.EnsureSuccessStatusCode();
        var echoed = await echoResponse.Content.ReadAsByteArrayAsync();
        Assert.Equal(size, echoed.Length);
        Assert.True(body.AsSpan().SequenceEqual(echoed), "The echoed body differs from the one sent.");
    }

    [TransportFact]
    public async Task LargeResponseStreamsCompletely()
    {
        const int megabytes = 64;
        using var response = await fixture.Client.GetAsync(fixture.Url($"/stream?mb={megabytes}"), HttpCompletionOption.ResponseHeadersRead);
        response.EnsureSuccessStatusCode();
        await using var stream = await response.Content.ReadAsStreamAsync();
        var buffer = new byte[256 * 1024];
        long offset = 0;
        int read;
        while ((read = await stream.ReadAsync(buffer)) > 0)
        {
            for (var i = 0; i < read; i++)
            {
                if (buffer[i] != LoopbackServer.StreamByte(offset + i))
                {
                    Assert.Fail($"Byte {offset + i} of the streamed response is wrong.");
                }
            }

            offset += read;
        }

        Assert.Equal(megabytes * 1024L * 1024L, offset);
    }

    [TransportFact]
    public async Task ClientAbortingMidRequestLeavesTheServerServing()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        var connection = await RawHttpConnection.ConnectAsync(fixture.IPv4, timeout.Token);
        await connection.SendAsync("POST /hash HTTP/1.1\r\nHost: test\r\nContent-Length: 8388608\r\n\r\n", timeout.Token);
        await connection.SendAsync(new byte[1024 * 1024], timeout.Token);
        connection.Reset();

        await AssertServesHelloAsync(fixture.IPv4, timeout.Token);
    }

    [TransportFact]
    public async Task ClientHalfClosingMidChunkedBodyEndsTheRequestAndLeavesTheServerServing()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await using (var connection = await RawHttpConnection.ConnectAsync(fixture.IPv4, timeout.Token))
        {
            // A 1 KiB chunk announced, 100 bytes sent, then FIN: the body can never complete. The transport must hand
            // the end of input to Kestrel (or abort the request, as Sockets does on FIN), and the connection must
            // end — not wait for bytes that will not come.
            await connection.SendAsync("POST /hash HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n" + new string('x', 100), timeout.Token);
            connection.Socket.Shutdown(SocketShutdown.Send);

            string received;
            try
            {
                received = Encoding.ASCII.GetString(await connection.ReadToEndAsync(timeout.Token));
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionReset)
            {
                // Ended with RST (Sockets aborts the request on FIN, and closing with unread input resets): ended too.
                received = "";
            }

            Assert.True(received.Length == 0 || received.StartsWith("HTTP/1.1 4", StringComparison.Ordinal), $"Answered a body cut short with: {received}");
        }

        await AssertServesHelloAsync(fixture.IPv4, timeout.Token);
    }

    [TransportFact]
    public async Task ClientAbortingMidResponseLeavesTheServerServing()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        var abortedBefore = fixture.Server.Activity.AbortedResponses;
        var connection = await RawHttpConnection.ConnectAsync(fixture.IPv4, timeout.Token);
        await connection.SendAsync(RawHttpConnection.Get("/stream?mb=1024"), timeout.Token);
        var buffer = new byte[64 * 1024];
        var received = 0;
        while (received < 1024 * 1024)
        {
            received += await connection.Socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
        }

        connection.Reset();

        // The server must notice (its write fails or the request is aborted) instead of waiting forever.
        while (fixture.Server.Activity.AbortedResponses == abortedBefore)
        {
            await Task.Delay(20, timeout.Token);
        }

        await AssertServesHelloAsync(fixture.IPv4, timeout.Token);
    }

    [TransportFact]
    public async Task GracefulShutdownCompletesRequestsInFlight()
    {
        const int requests = 4;
        using var timeout = new CancellationTokenSource(Timeout);
        await using var server = await LoopbackServer.StartAsync(Variant, ["http://127.0.0.1:0"]);
        var endPoint = server.EndPoint(IPAddress.Loopback);

        var responses = new Task<RawHttpResponse?>[requests];
        var connections = new RawHttpConnection[requests];
        for (var i = 0; i < requests; i++)
        {
            connections[i] = await RawHttpConnection.ConnectAsync(endPoint, timeout.Token);
            await connections[i].SendAsync(RawHttpConnection.Get("/slow?ms=1500"), timeout.Token);
            responses[i] = connections[i].ReadResponseAsync(timeout.Token);
        }

        while (server.Activity.InFlight < requests)
        {
            await Task.Delay(10, timeout.Token);
        }

        var stopping = server.StopAsync();
        foreach (var response in await Task.WhenAll(responses))
        {
            Assert.NotNull(response);
            Assert.Equal(200, response.Status);
            Assert.Equal("slow", response.BodyText);
        }

        await stopping;
        foreach (var connection in connections)
        {
            await connection.DisposeAsync();
        }

        var refused = await Assert.ThrowsAsync<SocketException>(() => RawHttpConnection.ConnectAsync(endPoint, timeout.Token));
        Assert.Equal(SocketError.ConnectionRefused, refused.SocketErrorCode);
    }

    [TransportFact]
    public async Task ThousandConcurrentConnectionsAreServed()
    {
        // Client and server share this process: two descriptors per connection plus the runtime's own.
        var limit = OpenFileLimit();
        Assert.True(limit >= (2 * ConcurrentConnections) + 512, $"RLIMIT_NOFILE is {limit}; this test needs {(2 * ConcurrentConnections) + 512}. Raise it (ulimit -n) before running the suite.");

        using var timeout = new CancellationTokenSource(Timeout);
        var connections = new List<RawHttpConnection>(ConcurrentConnections);
        try
        {
            // Connect in waves no larger than the accept backlog, so no SYN is dropped and retried a second later.
            for (var wave = 0; wave < ConcurrentConnections; wave += 200)
            {
                var connecting = Enumerable.Range(0, 200).Select(_ => RawHttpConnection.ConnectAsync(fixture.IPv4, timeout.Token));
                connections.AddRange(await Task.WhenAll(connecting));
            }

            var answers = await Task.WhenAll(connections.Select(async (connection, index) =>
            {
                await connection.SendAsync(RawHttpConnection.Get($"/seq/{index}"), timeout.Token);
                var response = await connection.ReadResponseAsync(timeout.Token);
                return response?.BodyText == index.ToString(CultureInfo.InvariantCulture);
            }));

            Assert.Equal(ConcurrentConnections, answers.Count(ok => ok));
        }
        finally
        {
            foreach (var connection in connections)
            {
                await connection.DisposeAsync();
            }
        }
    }

    [TransportFact]
    public async Task ClientHalfCloseAfterTheRequest()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await using var connection = await RawHttpConnection.ConnectAsync(fixture.IPv4, timeout.Token);
        await connection.SendAsync(RawHttpConnection.Get("/hello"), timeout.Token);
        connection.Socket.Shutdown(SocketShutdown.Send);

        var received = Encoding.ASCII.GetString(await connection.ReadToEndAsync(timeout.Token));
        if (Variant.ServesHalfClosedClients)
        {
            Assert.StartsWith("HTTP/1.1 200 OK", received, StringComparison.Ordinal);
            Assert.EndsWith(HelloChunked, received, StringComparison.Ordinal);
        }
        else
        {
            // Kestrel's Sockets transport fires ConnectionClosed on FIN and Kestrel aborts the request: whether the
            // response was written before that is a race. What it must never do is send a truncated response.
            Assert.True(received.Length == 0 || received.EndsWith(HelloChunked, StringComparison.Ordinal), $"A truncated response: {received}");
        }
    }

    [TransportFact]
    public async Task PortZeroIsReportedAsTheRealPort()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        Assert.All(fixture.Server.Addresses.Where(address => !address.Contains("unix:", StringComparison.Ordinal)), address => Assert.NotEqual(0, new Uri(address).Port));
        Assert.Equal("hello", await fixture.Client.GetStringAsync(fixture.Url("/hello"), timeout.Token));
    }

    [TransportFact]
    public async Task PortAlreadyInUseFailsWithAClearError()
    {
        using var blocker = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        blocker.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        blocker.Listen();
        var port = ((IPEndPoint)blocker.LocalEndPoint!).Port;

        var error = await Assert.ThrowsAsync<IOException>(() => LoopbackServer.StartAsync(Variant, [$"http://127.0.0.1:{port}"]));
        Assert.Contains("address already in use", error.Message, StringComparison.OrdinalIgnoreCase);
        Assert.Contains(port.ToString(CultureInfo.InvariantCulture), error.Message, StringComparison.Ordinal);
    }

    [TransportFact]
    public async Task IPv4AndIPv6LoopbackBothServe()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await AssertServesHelloAsync(fixture.IPv4, timeout.Token);
        await AssertServesHelloAsync(fixture.IPv6, timeout.Token);
    }

    [TransportFact]
    public async Task UnixDomainSocketServes()
    {
        using var timeout = new CancellationTokenSource(Timeout);
        await AssertServesHelloAsync(fixture.Unix, timeout.Token);
    }

    private static async Task AssertServesHelloAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        await using var connection = await RawHttpConnection.ConnectAsync(endPoint, cancellationToken);
        await connection.SendAsync(RawHttpConnection.Get("/hello"), cancellationToken);
        var response = await connection.ReadResponseAsync(cancellationToken);
        Assert.NotNull(response);
        Assert.Equal(200, response.Status);
        Assert.Equal("hello", response.BodyText);
    }

    private static long OpenFileLimit()
    {
        foreach (var line in File.ReadLines("/proc/self/limits"))
        {
            if (line.StartsWith("Max open files", StringComparison.Ordinal))
            {
                var soft = line["Max open files".Length..].Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries)[0];
                return soft == "unlimited" ? long.MaxValue : long.Parse(soft, CultureInfo.InvariantCulture);
            }
        }

        return 0;
    }

    private HttpRequestMessage BodyRequest(string path, byte[] body, bool chunked)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, fixture.Url(path)) { Content = new ByteArrayContent(body) };
        if (chunked)
        {
            request.Headers.TransferEncodingChunked = true;
            request.Content.Headers.ContentLength = null;
        }

        return request;
    }
}
