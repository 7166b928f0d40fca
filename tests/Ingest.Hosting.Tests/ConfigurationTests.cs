using System.Net;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Testing;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Tests;

/// <summary>Configuration is validated at start-up with messages naming the key to fix, and the effective
/// configuration is reported in one line.</summary>
public sealed class ConfigurationTests
{
    [Theory]
    [InlineData(null, null, "Forwarding:BackEnds is empty")]
    [InlineData("Forwarding:BackEnds:0", "https://example.invalid", "Forwarding:BackEnds:0 = 'https://example.invalid' is not an absolute http:// URL")]
    [InlineData("Forwarding:TimeoutMilliseconds", "0", "Forwarding:TimeoutMilliseconds = 0 is outside 10..600000")]
    [InlineData("Forwarding:TimeoutMilliseconds", "5", "Forwarding:TimeoutMilliseconds = 5 is outside 10..600000")]
    [InlineData("Forwarding:BatchMaxEvents", "-1", "Forwarding:BatchMaxEvents = -1 is outside")]
    [InlineData("Ingest:MaxBodyBytes", "0", "Ingest:MaxBodyBytes = 0 is outside")]
    [InlineData("Memory:ReleaseStartupPagesAfterSeconds", "-1", "Memory:ReleaseStartupPagesAfterSeconds is outside 0..86400")]
    [InlineData("Ingest:ApiStyle", "7", "Ingest:ApiStyle = 7 is not one of Minimal, Mvc, Raw")]
    [InlineData("Forwarding:ClientStrategy", "Loop", "Forwarding:ClientStrategy = Loop is not one of PerRequest, PerRequestBlocking, Static, Factory, LoopDirect: Loop (HttpClient on the loops' connections) was removed")]
    [InlineData("Forwarding:Mode", "Streamed", "Forwarding:Mode = Streamed is not one of PerEvent, Batched.")]
    [InlineData("Forwarding:ClientStrategy", "9", "Forwarding:ClientStrategy = 9 is not one of PerRequest, PerRequestBlocking, Static, Factory, LoopDirect.")]
    [InlineData("Forwarding:ClientStrategy", "loopdirect", "Forwarding:ClientStrategy=LoopDirect needs a transport whose loops can own the forward's connections")]
    [InlineData("Forwarding:ClientStrategy", "LoopDirect", "Forwarding:ClientStrategy=LoopDirect needs a transport whose loops can own the forward's connections")]
    public async Task AFrontEndWithBadSettingsRefusesToStartAndNamesTheKey(string? key, string? value, string message)
    {
        var settings = new Dictionary<string, string?>();
        if (key is not null)
        {
            settings[key] = value;
            if (!key.StartsWith("Forwarding:BackEnds", StringComparison.Ordinal))
            {
                settings["Forwarding:BackEnds:0"] = "http://127.0.0.1:1";
            }
        }

        var error = await Assert.ThrowsAnyAsync<Exception>(() => ServiceHost.StartAsync(ServiceRole.FrontEnd, settings));

        var validation = Assert.IsType<OptionsValidationException>(error);
        Assert.Contains(message, validation.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnUnknownEnumNameRefusesToStartAndNamesTheKey()
    {
        var error = await Assert.ThrowsAnyAsync<Exception>(() => ServiceHost.StartAsync(ServiceRole.BackEnd, new Dictionary<string, string?> { ["Sinks:Default"] = "Cassandra" }));

        Assert.Contains("Sinks:Default", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheStartupLineTellsTheWholeConfiguration()
    {
        var logs = new CapturingLoggerProvider();
        var configuration = new FlowConfiguration(Core.Serialization.SerializerKind.Newtonsoft, ClientStrategy.Factory, ApiStyle.Raw, ForwardingMode.Batched);
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, configuration.FrontEnd([new Uri("http://127.0.0.1:9")]), logs: logs);

        var line = Assert.Single(logs.Messages, m => m.StartsWith("Ingest listening on", StringComparison.Ordinal));
        foreach (var expected in new[]
        {
            "role=FrontEnd", "api=Raw", "serializer=Newtonsoft", "clients=Factory", "forwarding=Batched", "protocol=Http11",
            "backends=http://127.0.0.1:9", "gc=Workstation", "concurrent=", "datas=off", "gen0max=", "region=", $"cpus={Environment.ProcessorCount}", "memory=", "aot=no", "runtime=.NET-10",
        })
        {
            Assert.Contains(expected, line, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.Factory)]
    public async Task ForwardsOverH2cWhenTheBackEndSpeaksOnlyHttp2(ClientStrategy strategy)
    {
        await using var flow = await Flow.StartAsync(
            new FlowConfiguration(Strategy: strategy),
            frontEndExtra: new() { ["Forwarding:Protocol"] = nameof(BackEndProtocol.Http2) },
            backEndExtra: new() { ["Kestrel:EndpointDefaults:Protocols"] = "Http2" });

        for (var i = 0; i < 20; i++)
        {
            using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        Assert.Equal(20, flow.Stats().Total);
    }

    [Fact]
    public async Task AnHttp11ForwardToAnHttp2OnlyBackEndFailsWith502()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: new() { ["Kestrel:EndpointDefaults:Protocols"] = "Http2" });

        using var response = await flow.Client.PostEventAsync(SamplePayloads.Classic);

        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
    }

    [Fact]
    public async Task LoopDirectWithHttp2RefusesToStartAndNamesTheKey()
    {
        var settings = new FlowConfiguration(Strategy: ClientStrategy.LoopDirect).FrontEnd(
            [new Uri("http://127.0.0.1:1")], new() { ["Forwarding:Protocol"] = nameof(BackEndProtocol.Http2) });

        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => ServiceHost.StartAsync(ServiceRole.FrontEnd, settings));

        Assert.Contains("Forwarding:Protocol = Http2 with ClientStrategy=LoopDirect", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.LoopDirect)]
    public async Task ForwardsOverAUnixDomainSocket(ClientStrategy strategy)
    {
        var path = Path.Combine(Path.GetTempPath(), $"ingest-{Guid.NewGuid():N}.sock");
        var configuration = new FlowConfiguration(Strategy: strategy);
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, configuration.BackEnd(), url: $"http://unix:{path}");
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd,
            configuration.FrontEnd([new Uri("http://localhost")], new() { ["Forwarding:UnixSocketPath"] = path }));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        for (var i = 0; i < 10; i++)
        {
            using var response = await client.PostEventAsync(SamplePayloads.Classic);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        Assert.Equal(10, backEnd.Get<BackEndHandler>().Stats().Total);
    }
}
