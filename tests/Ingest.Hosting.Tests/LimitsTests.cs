using System.Net;
using System.Text;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>Each configured limit answers its violation with a clear 4xx.</summary>
public sealed class LimitsTests
{
    [Fact]
    public async Task HeadersOverTheSizeOrCountLimitAre431()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(),
            frontEndExtra: new() { ["Limits:MaxRequestHeadersTotalSize"] = "4096", ["Limits:MaxRequestHeaderCount"] = "20" });

        var (big, _, _) = await RawHttp.SendAsync(flow.FrontEnd.BaseAddress, $"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: {new string('x', 5000)}\r\n\r\n", [], closeWriteAfter: false);
        var many = new StringBuilder("GET /healthz HTTP/1.1\r\nHost: t\r\n");
        for (var i = 0; i < 25; i++)
        {
            many.Append(System.Globalization.CultureInfo.InvariantCulture, $"X-H{i}: v\r\n");
        }

        var (count, _, _) = await RawHttp.SendAsync(flow.FrontEnd.BaseAddress, many.Append("\r\n").ToString(), [], closeWriteAfter: false);

        Assert.Equal(431, big);
        Assert.Equal(431, count);
    }

    [Fact]
    public async Task AConnectionOverItsRequestRateGets429WhileOthersAreServed()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), frontEndExtra: new() { ["Limits:RequestsPerSecondPerConnection"] = "5" });
        using var greedy = TestClient.Create(flow.FrontEnd.BaseAddress, maxConnections: 1);

        var statuses = new List<HttpStatusCode>();
        HttpResponseMessage? limited = null;
        for (var i = 0; i < 12; i++)
        {
            var response = await greedy.PostEventAsync(SamplePayloads.Classic);
            statuses.Add(response.StatusCode);
            if (response.StatusCode == HttpStatusCode.TooManyRequests)
            {
                limited ??= response;
            }
        }

        using var other = TestClient.Create(flow.FrontEnd.BaseAddress, maxConnections: 1);
        using var polite = await other.PostEventAsync(SamplePayloads.Classic);

        Assert.Contains(HttpStatusCode.TooManyRequests, statuses);
        Assert.NotNull(limited);
        Assert.NotNull(limited.Headers.RetryAfter);
        BadInputTests.AssertProblem(await limited.Content.ReadAsStringAsync(), limited.Content.Headers.ContentType?.MediaType, 429, "too-many-requests", null, "rate limit");
        Assert.Equal(HttpStatusCode.OK, polite.StatusCode);
        Assert.Equal(statuses.Count(s => s == HttpStatusCode.OK) + 1, flow.Stats().Total);
    }

    [Fact]
    public async Task JsonDeeperThanTheConfiguredDepthIs400()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), frontEndExtra: new() { ["Limits:MaxJsonDepth"] = "8" });
        var deep = SamplePayloads.Job(1).TrimEnd('}') + ",\"extra\":" + string.Concat(Enumerable.Repeat("{\"a\":", 10)) + "1" + new string('}', 10) + "}";

        using var shallow = await flow.Client.PostEventAsync(SamplePayloads.Job(1));
        using var tooDeep = await flow.Client.PostEventAsync(deep);

        Assert.Equal(HttpStatusCode.OK, shallow.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, tooDeep.StatusCode);
    }

    [Fact]
    public async Task ABodyTricklingSlowerThanTheMinimumRateIsCutOff()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(),
            frontEndExtra: new() { ["Limits:MinRequestBodyBytesPerSecond"] = "100", ["Limits:MinRequestBodyGraceSeconds"] = "2" });
        using var socket = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
        await socket.ConnectAsync(flow.FrontEnd.BaseAddress.Host, flow.FrontEnd.BaseAddress.Port);
        await socket.SendAsync(Encoding.ASCII.GetBytes("POST /ingest/event HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"));

        // Send a byte every 200 ms (5 bytes/s, far under 100): Kestrel ends it after the grace period.
        var closed = false;
        var buffer = new byte[4096];
        var received = new StringBuilder();
        for (var i = 0; i < 40 && !closed; i++)
        {
            await Task.Delay(200);
            try
            {
                await socket.SendAsync(" "u8.ToArray());
                if (socket.Available > 0)
                {
                    var n = await socket.ReceiveAsync(buffer);
                    closed = n == 0;
                    received.Append(Encoding.ASCII.GetString(buffer, 0, n));
                }
            }
            catch (System.Net.Sockets.SocketException)
            {
                closed = true;
            }
        }

        Assert.True(closed || received.ToString().StartsWith("HTTP/1.1 408", StringComparison.Ordinal), $"still open after 8 s; got: {received}");
        Assert.Equal(0, flow.Stats().Total);
    }
}
