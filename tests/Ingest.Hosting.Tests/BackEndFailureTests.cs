using System.Net;
using System.Net.Sockets;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>A back-end that is down or slower than the timeout gives 502 or 504, with every client strategy and
/// API style, and the caller is not kept waiting past the timeout.</summary>
public sealed class BackEndFailureTests
{
    private const int TimeoutMilliseconds = 200;
    // Long enough past the timeout that a loaded machine's late timer (seen: 400-800 ms on 2 busy cores) still
    // aborts the forward before the back-end would persist it.
    private const int BackEndDelayMilliseconds = 2_000;

    public static TheoryData<ClientStrategy, ApiStyle, ForwardingMode> StrategiesStylesAndModes() => EnumMatrix.Every<ClientStrategy, ApiStyle, ForwardingMode>();

    [Theory]
    [MemberData(nameof(StrategiesStylesAndModes))]
    public async Task ABackEndThatIsDownGives502(ClientStrategy strategy, ApiStyle style, ForwardingMode mode)
    {
        var configuration = new FlowConfiguration(Strategy: strategy, Style: style, Mode: mode);
        await using var frontEnd = await ServiceHost.StartAsync(Hosting.ServiceRole.FrontEnd, configuration.FrontEnd([new Uri($"http://127.0.0.1:{UnusedPort()}")]));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        using var response = await client.PostEventAsync(SamplePayloads.Classic);

        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
        BadInputTests.AssertProblem(await response.Content.ReadAsStringAsync(), response.Content.Headers.ContentType?.MediaType, 502, "backend-failed", null, "back-end down");
    }

    /// <summary>Every strategy in both modes, and every style: the timeout does not depend on style and mode together.</summary>
    public static TheoryData<ClientStrategy, ApiStyle, ForwardingMode> TimeoutCases()
    {
        var data = new TheoryData<ClientStrategy, ApiStyle, ForwardingMode>();
        foreach (var strategy in Enum.GetValues<ClientStrategy>())
        {
            data.Add(strategy, ApiStyle.Minimal, ForwardingMode.PerEvent);
            data.Add(strategy, ApiStyle.Minimal, ForwardingMode.Batched);
        }

        data.Add(ClientStrategy.Static, ApiStyle.Mvc, ForwardingMode.PerEvent);
        data.Add(ClientStrategy.Static, ApiStyle.Raw, ForwardingMode.PerEvent);
        return data;
    }

    [Theory]
    [MemberData(nameof(TimeoutCases))]
    public async Task ABackEndSlowerThanTheTimeoutGives504AndPersistsNothing(ClientStrategy strategy, ApiStyle style, ForwardingMode mode)
    {
        await using var flow = await Flow.StartAsync(
            // The back-end keeps Kestrel's rule for a caller's FIN (docs/contract.md#half-close): it aborts the request,
            // so the front-end giving up cancels the persist. Sockets for every row: whether a delayed persist notices
            // the abort in time is the transport's timing, and a persist that lands anyway is what a 504 allows (it
            // leaves the outcome open).
            new FlowConfiguration(Strategy: strategy, Style: style, Mode: mode, BackEndTransport: "Sockets"),
            frontEndExtra: new() { ["Forwarding:TimeoutMilliseconds"] = TimeoutMilliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture) },
            backEndExtra: new() { ["Faults:DelayMilliseconds"] = BackEndDelayMilliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture) });

        using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);

        // Had the front-end waited for the back-end, the answer would be a 200 after the delay: 504 is the timeout.
        Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
        BadInputTests.AssertProblem(await response.Content.ReadAsStringAsync(), response.Content.Headers.ContentType?.MediaType, 504, "backend-timeout", null, "slow back-end");

        // The front-end's timeout aborted the forward; the back-end must not persist it after its delay either.
        await Task.Delay(BackEndDelayMilliseconds + 300);
        Assert.Equal(0, flow.Stats().Total);
    }

    [Fact]
    public async Task AForwardGoesToEveryBackEnd()
    {
        var configuration = new FlowConfiguration();
        await using var first = await ServiceHost.StartAsync(Hosting.ServiceRole.BackEnd, configuration.BackEnd());
        await using var second = await ServiceHost.StartAsync(Hosting.ServiceRole.BackEnd, configuration.BackEnd());
        await using var frontEnd = await ServiceHost.StartAsync(Hosting.ServiceRole.FrontEnd, configuration.FrontEnd([first.BaseAddress, second.BaseAddress]));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        for (var i = 0; i < 10; i++)
        {
            using var response = await client.PostEventAsync(SamplePayloads.Classic);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        Assert.Equal(10, first.Get<BackEndHandler>().Stats().Total);
        Assert.Equal(10, second.Get<BackEndHandler>().Stats().Total);
    }

    [Fact]
    public async Task OneFailingBackEndOfTwoGives502()
    {
        var configuration = new FlowConfiguration();
        await using var alive = await ServiceHost.StartAsync(Hosting.ServiceRole.BackEnd, configuration.BackEnd());
        await using var frontEnd = await ServiceHost.StartAsync(Hosting.ServiceRole.FrontEnd,
            configuration.FrontEnd([alive.BaseAddress, new Uri($"http://127.0.0.1:{UnusedPort()}")]));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        using var response = await client.PostEventAsync(SamplePayloads.Classic);

        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
    }

    internal static int UnusedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
