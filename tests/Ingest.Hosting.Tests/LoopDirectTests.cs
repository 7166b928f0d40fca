using System.Collections.Concurrent;
using System.Net;
using Ingest.Core.Forwarding;
using Ingest.Core.Forwarding.Direct;
using Ingest.Core.Samples;
using Ingest.Testing;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Tests;

/// <summary>
/// What LoopDirect's own client must do that HttpClient did for the other strategies, between real services: hold a
/// connection limit under concurrent forwards, carry every forward's own body and key when hundreds are in flight at once
/// (each is built in the buffer of the connection that carries it), and carry on over kept connections the back-end
/// closed when it restarted (every strategy, as the same behaviour).
/// </summary>
public sealed class LoopDirectTests
{
    [Fact]
    public async Task AtOneConnectionPerLoopEveryConcurrentForwardIsServed()
    {
        await using var flow = await Flow.StartAsync(
            new FlowConfiguration(Strategy: ClientStrategy.LoopDirect),
            frontEndExtra: new() { ["Forwarding:MaxConnectionsPerServer"] = "1" });

        var responses = await Task.WhenAll(Enumerable.Range(0, 64).Select(async _ =>
        {
            using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);
            return response.StatusCode;
        }));

        Assert.All(responses, status => Assert.Equal(HttpStatusCode.OK, status));
        Assert.Equal(64, flow.Stats().Total);
        var sender = Assert.IsType<LoopDirectSender>(flow.FrontEnd.Get<IBackEndSender>());
        Assert.InRange(sender.OpenConnections(0), 1, flow.FrontEnd.Get<IForwardLoops>().Count);
    }

    [Fact]
    public async Task ThreeHundredForwardsInFlightAtOnceEachCarryTheirOwnBodyAndKey()
    {
        // The fast path's configuration, and every forward held by the back-end until all are in flight together, as at
        // c300: each request is built in its own connection's buffer, none in a buffer shared or handed back meanwhile
        // (docs/notebook/fast-path-at-300-connections.md).
        const int InFlight = 300;
        var allArrived = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var received = new ConcurrentQueue<(string Key, string Body)>();
        await using var backEnd = await ScriptedBackEnd.StartAsync(async (context, number) =>
        {
            using var reader = new StreamReader(context.Request.Body);
            received.Enqueue((context.Request.Headers[BackEndForwarder.IdempotencyKeyHeader].ToString(), await reader.ReadToEndAsync()));
            if (number == InFlight)
            {
                allArrived.SetResult();
            }

            await allArrived.Task;
            await ScriptedBackEnd.Status(context, StatusCodes.Status200OK);
        });
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, new FlowConfiguration(Strategy: ClientStrategy.LoopDirect, Transport: "IoUring").FrontEnd(
            [backEnd.BaseAddress],
            new() { ["Forwarding:TimeoutMilliseconds"] = "60000", ["Forwarding:AttemptTimeoutMilliseconds"] = "60000" }));
        using var client = TestClient.Create(frontEnd.BaseAddress, maxConnections: InFlight);
        var jobIds = Enumerable.Range(0, InFlight).Select(i => i.ToString("x12", System.Globalization.CultureInfo.InvariantCulture)).ToArray();

        var statuses = await Task.WhenAll(jobIds.Select(async jobId =>
        {
            using var response = await client.PostEventAsync(SamplePayloads.Classic.Replace("c4bb6d130003", jobId, StringComparison.Ordinal));
            return response.StatusCode;
        }));

        Assert.All(statuses, status => Assert.Equal(HttpStatusCode.OK, status));
        Assert.Equal(InFlight, received.Count);
        Assert.Equal(InFlight, received.Select(r => r.Key).Distinct().Count());
        Assert.All(received, r => Assert.Matches("^[0-9a-f]{32}$", r.Key));
        var forwarded = received.Select(r => Assert.Single(System.Text.Json.JsonDocument.Parse(r.Body).RootElement.EnumerateArray()).GetProperty("job_id").GetString()).ToHashSet();
        Assert.True(forwarded.SetEquals(jobIds));
    }

    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.LoopDirect)]
    public async Task ForwardsCarryOnOverKeptConnectionsAfterTheBackEndRestarts(ClientStrategy strategy)
    {
        var configuration = new FlowConfiguration(Strategy: strategy);
        var url = $"http://127.0.0.1:{LoopbackPorts.Free()}";
        var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, configuration.BackEnd(), url);
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, configuration.FrontEnd([new Uri(url)]));
        using var client = TestClient.Create(frontEnd.BaseAddress);
        await PostAsync(client, 5);

        // The back-end goes away with the front-end's connections to it kept open, and comes back on the same port.
        await backEnd.DisposeAsync();
        await using var restarted = await ServiceHost.StartAsync(ServiceRole.BackEnd, configuration.BackEnd(), url);

        await PostAsync(client, 5);
        Assert.Equal(5, restarted.Get<BackEndHandler>().Stats().Total);
    }

    private static async Task PostAsync(HttpClient client, int count)
    {
        for (var i = 0; i < count; i++)
        {
            using var response = await client.PostEventAsync(SamplePayloads.Classic);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }
    }
}
