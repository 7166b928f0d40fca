using System.Net;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>Retries that cannot duplicate, a breaker that fails fast, backpressure that sheds, and a store failure
/// that is never acknowledged.</summary>
public sealed class ResilienceTests
{
    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.LoopDirect)]
    public async Task AForwardRetriedAfterItsAnswerWasLostIsPersistedOnce(ClientStrategy strategy)
    {
        // The back-end persists, then answers after the front-end's attempt timeout: the retry carries the same
        // Idempotency-Key, and the back-end acknowledges it without writing the event again. (Polly keeps the
        // attempt's deadline for HttpClient, LoopDirect's sweep for its own connections.)
        await using var flow = await Flow.StartAsync(
            new FlowConfiguration(Strategy: strategy),
            frontEndExtra: new() { ["Forwarding:AttemptTimeoutMilliseconds"] = "300", ["Forwarding:TimeoutMilliseconds"] = "5000", ["Forwarding:RetryAttempts"] = "3" },
            backEndExtra: new() { ["Faults:ResponseDelayMilliseconds"] = "600" });

        using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        await Task.Delay(1000);
        Assert.Equal(1, flow.Stats().Total);
        Assert.True(flow.BackEnd.Get<Core.Sinks.IdempotencyGuard>().Duplicates >= 1, "the retry reached the back-end and was recognised");
    }

    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.LoopDirect)]
    public async Task AForwardWhoseAttemptTimesOutWhileTheStoreHoldsItsEventsIsPersistedOnce(ClientStrategy strategy)
    {
        // The file sink's writer lingers for more requests after the first, so the front-end's attempt times out
        // after the store has taken the event and before it has written it: the back-end's request is aborted, the
        // event is written anyway, and the retry (same Idempotency-Key) must wait for that write, not write again.
        // Seen under a bandwidth cap between the services (FaultTests) as "1 events persisted twice". Retries to spare:
        // on a loaded machine the write ends later than its linger, and an answer that comes only after the last attempt
        // is a 504 (CI saw one with three attempts), which is not what this test is about.
        var store = Directory.CreateTempSubdirectory("ingest-linger-").FullName;
        try
        {
            await using var flow = await Flow.StartAsync(
                new FlowConfiguration(Strategy: strategy),
                frontEndExtra: new() { ["Forwarding:AttemptTimeoutMilliseconds"] = "300", ["Forwarding:TimeoutMilliseconds"] = "5000", ["Forwarding:RetryAttempts"] = "10" },
                backEndExtra: new() { ["Sinks:Default"] = "File", ["Sinks:File:Directory"] = store, ["Sinks:File:LingerMilliseconds"] = "700" });

            using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);

            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            await Task.Delay(1500);
            Assert.Equal(1, flow.Stats().Total);
            Assert.Single(Directory.EnumerateFiles(store, "*", SearchOption.AllDirectories).SelectMany(File.ReadLines), line => line.Length > 0);
            Assert.True(flow.BackEnd.Get<Core.Sinks.IdempotencyGuard>().Duplicates >= 1, "the retry reached the back-end while the first attempt was being written");
        }
        finally
        {
            Directory.Delete(store, recursive: true);
        }
    }

    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.LoopDirect)]
    public async Task ADeadBackEndOpensTheCircuitAndIsRefusedAtOnceWith503(ClientStrategy strategy)
    {
        var configuration = new FlowConfiguration(Strategy: strategy);
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, configuration.FrontEnd(
            [new Uri($"http://127.0.0.1:{BackEndFailureTests.UnusedPort()}")],
            new() { ["Forwarding:BreakerMinimumThroughput"] = "4", ["Forwarding:BreakerBreakSeconds"] = "30", ["Forwarding:RetryAttempts"] = "1" }));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        var statuses = new List<HttpStatusCode>();
        HttpResponseMessage? last = null;
        for (var i = 0; i < 10; i++)
        {
            last?.Dispose();
            last = await client.PostEventAsync(SamplePayloads.Classic);
            statuses.Add(last.StatusCode);
        }

        Assert.Equal(HttpStatusCode.BadGateway, statuses[0]);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, statuses[^1]);
        Assert.NotNull(last!.Headers.RetryAfter);
        BadInputTests.AssertProblem(await last.Content.ReadAsStringAsync(), last.Content.Headers.ContentType?.MediaType, 503, "overloaded", null, "open circuit");
        last.Dispose();
    }

    [Fact]
    public async Task AStoreThatIsDownIsA503WithRetryAfterNeverAnAcknowledgement()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: new() { ["Faults:FailWrites"] = "true" });

        using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);
        using var direct = await TestClient.Create(flow.BackEnd.BaseAddress).PostAsync("/ingest/data",
            new StringContent("[" + SampleForward + "]", System.Text.Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.NotNull(response.Headers.RetryAfter);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, direct.StatusCode);
        BadInputTests.AssertProblem(await direct.Content.ReadAsStringAsync(), direct.Content.Headers.ContentType?.MediaType, 503, "store-unavailable", null, "store down");
        Assert.Equal(0, flow.Stats().Total);
    }

    [Fact]
    public async Task BeyondTheInFlightLimitRequestsAreShedAtOnceAndTheRestArePersisted()
    {
        await using var flow = await Flow.StartAsync(
            new FlowConfiguration(),
            frontEndExtra: new() { ["Forwarding:MaxInFlight"] = "2" },
            backEndExtra: new() { ["Faults:DelayMilliseconds"] = "400" });

        var responses = await Task.WhenAll(Enumerable.Range(0, 12).Select(_ => flow.Client.PostEventAsync(SamplePayloads.Classic)));

        var ok = responses.Count(r => r.StatusCode == HttpStatusCode.OK);
        var shed = responses.Where(r => r.StatusCode == HttpStatusCode.ServiceUnavailable).ToList();
        Assert.Equal(12, ok + shed.Count);
        Assert.InRange(ok, 2, 11);
        Assert.All(shed, r => Assert.NotNull(r.Headers.RetryAfter));
        await Task.Delay(200);
        Assert.Equal(ok, flow.Stats().Total);
        foreach (var r in responses)
        {
            r.Dispose();
        }
    }

    internal const string SampleForward =
        """{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}""";
}
