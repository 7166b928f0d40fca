using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Ingest.LoadGen.Tests;

/// <summary>Runs against real Kestrel over real sockets. No timing assertions beyond "it stopped by itself".</summary>
public sealed class LoadRunnerTests(TestServerFixture fixture) : IClassFixture<TestServerFixture>
{
    private TestServer Server => fixture.Server;

    [Theory]
    [InlineData(1, 1)]
    [InlineData(8, 1)]
    [InlineData(8, 8)]
    public async Task ACountBoundedRunSendsExactlyThatManyRequestsAndStops(int connections, int pipeline)
    {
        var before = Server.Hits;

        var result = await LoadRunner.RunAsync(Options.Closed(Server.Url("/count"), requests: 1_000, connections: connections, pipeline: pipeline));

        Assert.Equal(LoadStopReason.Requests, result.StopReason);
        Assert.Equal(1_000, result.Requests);
        Assert.Equal(1_000, result.Responses);
        Assert.Equal(1_000, result.SuccessfulResponses);
        Assert.Equal(1_000, result.Latency.Count);
        Assert.Equal(1_000, result.Timeline.Sum(s => s.Requests));
        Assert.Equal(0, result.InFlightAtEnd);
        Assert.Equal(1_000, Server.Hits - before); // the server saw exactly what was counted
    }

    [Fact]
    public async Task TheTimelineCountsTheAnswersOtherThan2xxOfEachSecond()
    {
        // /status answers 200, 404 and 503 in turn.
        var result = await LoadRunner.RunAsync(Options.Closed(Server.Url("/status"), requests: 300, connections: 1));

        Assert.Equal(300, result.Timeline.Sum(s => s.Requests));
        Assert.Equal(200, result.BadResponses);
        Assert.Equal(result.BadResponses, result.Timeline.Sum(s => s.BadResponses));
        Assert.Equal(0, result.Timeline.Sum(s => s.Errors));
    }

    [Fact]
    public async Task ADurationBoundedRunStopsByItselfAndCountsConsistently()
    {
        var clock = Stopwatch.StartNew();

        var result = await LoadRunner.RunAsync(Options.Closed(Server.Url("/plaintext"), seconds: 1));

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(15), $"took {clock.Elapsed}");
        Assert.Equal(LoadStopReason.Duration, result.StopReason);
        Assert.Equal(1.0, result.ElapsedSeconds, 6);
        Assert.True(result.Requests > 0);
        Assert.Equal(result.Requests, result.Responses);
        Assert.Equal(result.Requests, result.Timeline.Sum(s => s.Requests));
        Assert.Equal(result.Responses, result.Latency.Count);
        Assert.Equal(result.Responses, result.StatusCodes[200]);
        Assert.Equal(result.Responses / result.ElapsedSeconds, result.RequestsPerSecond, 6);
        Assert.True(result.BytesRead > result.Responses * "Hello, World!".Length);
    }

    [Fact]
    public async Task WarmupRequestsAreKeptOutOfTheMeasuredPhase()
    {
        var before = Server.Hits;
        var options = Options.Closed(Server.Url("/count"), requests: 200);
        options.Warmup = TimeSpan.FromMilliseconds(300);

        var result = await LoadRunner.RunAsync(options);

        Assert.True(result.WarmupRequests > 0);
        Assert.Equal(200, result.Requests);
        Assert.Equal(200 + result.WarmupRequests, Server.Hits - before);
    }

    [Fact]
    public async Task AnAdaptiveWarmUpEndsByItsRuleThenMeasuresTheWholeDurationAndEveryRequestIsInOnePhase()
    {
        var before = Server.Hits;
        var options = Options.Closed(Server.Url("/count"), seconds: 0.5);
        options.Warmup = TimeSpan.FromMilliseconds(300);
        options.WarmupLimit = TimeSpan.FromSeconds(3);

        var result = await LoadRunner.RunAsync(options);

        // The first phase (0.3 s), then one 2 s slice fits under the limit and a second does not: the rule needs two
        // flat slices to call it stable, so the limit ended it. Loose bounds: it went past the first phase and stopped.
        Assert.False(result.WarmupStable);
        Assert.InRange(result.Settings.WarmupSeconds, 1.0, 10.0);
        Assert.Equal(3, result.Settings.WarmupLimitSeconds);
        Assert.Equal(LoadStopReason.Duration, result.StopReason);
        Assert.Equal(0.5, result.ElapsedSeconds, 6);
        Assert.True(result.WarmupRequests > 0);
        Assert.True(result.Requests > 0);
        // The server may have seen the requests still in flight when the duration ended, which count nowhere.
        Assert.InRange(Server.Hits - before, result.Requests + result.WarmupRequests, result.Requests + result.WarmupRequests + result.InFlightAtEnd);
    }

    [Fact]
    public async Task AFixedWarmUpReportsItsLengthAndNoLimit()
    {
        var options = Options.Closed(Server.Url("/plaintext"), requests: 100);
        options.Warmup = TimeSpan.FromMilliseconds(200);

        var result = await LoadRunner.RunAsync(options);

        Assert.Equal(0.2, result.Settings.WarmupSeconds, 3);
        Assert.Null(result.Settings.WarmupLimitSeconds);
        Assert.True(result.WarmupStable);
    }

    [Fact]
    public async Task CancellingEndsTheRunCleanlyWithAResult()
    {
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        var clock = Stopwatch.StartNew();

        var result = await LoadRunner.RunAsync(Options.Closed(Server.Url("/plaintext"), seconds: 60), cancellation.Token);

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(15), $"took {clock.Elapsed}");
        Assert.Equal(LoadStopReason.Cancelled, result.StopReason);
        Assert.True(result.Responses > 0);
    }

    [Fact]
    public async Task ChunkedResponsesAreParsed()
    {
        var result = await LoadRunner.RunAsync(Options.Closed(Server.Url("/chunked"), requests: 300, pipeline: 4));

        Assert.Equal(300, result.Responses);
        Assert.Equal(300, result.SuccessfulResponses);
        Assert.Equal(0, result.Errors.Total);
        Assert.Equal(0, result.Connections.ClosedByServer);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public async Task ConnectionCloseIsCountedAndFollowedByAReconnect(int pipeline)
    {
        var result = await LoadRunner.RunAsync(Options.Closed(Server.Url("/close"), requests: 200, pipeline: pipeline));

        Assert.Equal(200, result.Responses);
        Assert.Equal(0, result.Errors.Total);
        Assert.Equal(200, result.Connections.ClosedByServer);
        Assert.True(result.Connections.Reconnects >= 200 - 4, $"{result.Connections.Reconnects} reconnects");
    }

    [Fact]
    public async Task EveryNonSuccessStatusIsCountedOnItsOwn()
    {
        var result = await LoadRunner.RunAsync(Options.Closed(Server.Url("/status"), requests: 300));

        Assert.Equal(300, result.Responses);
        Assert.Equal(100, result.SuccessfulResponses);
        Assert.Equal(200, result.BadResponses);
        Assert.Equal(new Dictionary<int, long> { [404] = 100, [503] = 100 }, result.Errors.NonSuccessStatusCodes);
        Assert.Equal(new Dictionary<int, long> { [200] = 100, [404] = 100, [503] = 100 }, result.StatusCodes);
        Assert.Equal(0, result.Errors.Total);
    }

    [Fact]
    public async Task ConnectErrorsAreCountedWhenNothingListens()
    {
        // A bound socket that never listens: its port refuses connections and nobody else can take it.
        using var placeholder = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        placeholder.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        var port = ((IPEndPoint)placeholder.LocalEndPoint!).Port;

        var result = await LoadRunner.RunAsync(Options.Closed(new Uri($"http://127.0.0.1:{port}/"), seconds: 0.5, connections: 2));

        Assert.Equal(LoadStopReason.Duration, result.StopReason);
        Assert.True(result.Errors.Connect >= 2, $"{result.Errors.Connect} connect errors");
        Assert.Equal(0, result.Requests);
        Assert.Equal(0, result.Responses);
    }

    [Fact]
    public async Task ARequestWithoutAnswerTimesOutAndItsConnectionIsReplaced()
    {
        var options = Options.Closed(Server.Url("/hang"), seconds: 1, connections: 2);
        options.Timeout = TimeSpan.FromMilliseconds(200);

        var result = await LoadRunner.RunAsync(options);

        Assert.True(result.Errors.Timeout >= 2, $"{result.Errors.Timeout} timeouts");
        Assert.Equal(0, result.Responses);
        Assert.Equal(result.Errors.Timeout, result.Requests);
        Assert.Equal(result.Errors.Timeout, result.Timeline.Sum(s => s.Errors));
    }

    [Fact]
    public async Task BodiesAreSentRoundRobinWithTheirHeaders()
    {
        var small = Path.GetTempFileName();
        var large = Path.GetTempFileName();
        try
        {
            await File.WriteAllTextAsync(small, "{\"a\":1}");
            await File.WriteAllTextAsync(large, "{\"data\":\"" + new string('x', 3000) + "\"}");
            var options = Options.Closed(Server.Url("/body"), requests: 100, connections: 2);
            options.Threads = 1; // one worker: strict alternation
            options.BodyFiles.Add(small);
            options.BodyFiles.Add(large);
            options.ContentType = "application/x-test";
            options.Headers.Add("X-Test: yes");

            var result = await LoadRunner.RunAsync(options);

            Assert.Equal(100, result.SuccessfulResponses);
            Assert.Equal("POST", result.Settings.Method);
            Assert.Equal([7, 3011], result.Settings.BodySizes);
            Assert.Equal(50, Server.BodiesBySize[7]);
            Assert.Equal(50, Server.BodiesBySize[3011]);
            Assert.Equal(100, Server.ContentTypes["application/x-test"]);
            Assert.Equal(100, Server.TestHeaders["yes"]);
        }
        finally
        {
            File.Delete(small);
            File.Delete(large);
        }
    }

    [Fact]
    public async Task InvalidOptionsAreRefusedWithEveryProblem()
    {
        var options = new LoadOptions { Connections = 0, Pipeline = 0 };

        var error = await Assert.ThrowsAsync<ArgumentException>(() => LoadRunner.RunAsync(options));

        Assert.Contains("--url", error.Message, StringComparison.Ordinal);
        Assert.Contains("LoadOptions.Connections", error.Message, StringComparison.Ordinal);
        Assert.Contains("LoadOptions.Pipeline", error.Message, StringComparison.Ordinal);
    }
}
