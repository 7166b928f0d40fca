using System.Net;
using Ingest.Core.Forwarding;
using Ingest.Core.Forwarding.Direct;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// What LoopDirect's own client must do that HttpClient did for the other strategies, between real services: hold a
/// connection limit under concurrent forwards, and carry on over kept connections the back-end closed when it
/// restarted (every strategy, as the same behaviour).
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

    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.Loop)]
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
