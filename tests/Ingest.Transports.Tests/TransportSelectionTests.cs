using Ingest.Transports.Internal;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Tests;

/// <summary>Choosing the transport from configuration: defaults, validation at start-up, fallback.</summary>
public sealed class TransportSelectionTests
{
    private static readonly string[] s_loopback = ["http://127.0.0.1:0"];

    [Fact]
    public async Task WithoutConfigurationKestrelUsesSockets()
    {
        var unset = new TransportVariant("unset", TransportKind.Sockets, new Dictionary<string, string?>());
        await using var server = await LoopbackServer.StartAsync(unset, s_loopback);
        Assert.Equal(TransportKind.Sockets, server.Transport.Effective);
        Assert.StartsWith("Sockets", server.Transport.Description, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExactlyOneListenerFactoryIsRegistered()
    {
        await using var app = LoopbackServer.Build(TransportVariant.LinuxEpoll, s_loopback);
        Assert.IsType<IngestConnectionListenerFactory>(Assert.Single(app.Services.GetServices<IConnectionListenerFactory>()));
    }

    [Fact]
    public async Task UnavailableTransportFailsStartWithOneMessageSayingWhatToDo()
    {
        await using var app = LoopbackServer.Build(TransportVariant.IoUring, s_loopback, configureServices: SimulateUnavailable);
        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => app.StartAsync());
        Assert.Equal(
            "Kestrel:Transport=IoUring cannot run here: simulated: io_uring_setup failed with EPERM (1). Set Kestrel:Transport to another transport (Sockets always works), or set Kestrel:TransportFallback=true to fall back to Sockets.",
            error.Message);
    }

    [Fact]
    public async Task FallbackServesWithSocketsAndSaysWhy()
    {
        var settings = new Dictionary<string, string?> { ["Kestrel:TransportFallback"] = "true" };
        await using var server = await LoopbackServer.StartAsync(TransportVariant.IoUring, s_loopback, settings, SimulateUnavailable);
        Assert.Equal(TransportKind.IoUring, server.Transport.Requested);
        Assert.Equal(TransportKind.Sockets, server.Transport.Effective);
        Assert.Equal("simulated: io_uring_setup failed with EPERM (1).", server.Transport.FallbackReason);

        using var client = new HttpClient();
        Assert.Equal("Sockets", await client.GetStringAsync(new Uri(server.Address("127.0.0.1"), "/transport")));
    }

    [Theory]
    [InlineData("Kestrel:LinuxEpoll:ThreadCount", "0")]
    [InlineData("Kestrel:LinuxEpoll:Backlog", "-1")]
    [InlineData("Kestrel:LinuxEpoll:MaxReadBufferSize", "-5")]
    [InlineData("Kestrel:IoUring:RingEntries", "1000")]
    [InlineData("Kestrel:Sockets:IOQueueCount", "-1")]
    [InlineData("Kestrel:RedHatLinux:ThreadCount", "0")]
    public async Task InvalidSettingFailsStartNamingTheKey(string key, string value)
    {
        var settings = new Dictionary<string, string?> { [key] = value };
        await using var app = LoopbackServer.Build(TransportVariant.LinuxEpoll, s_loopback, settings);
        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => app.StartAsync());
        Assert.Contains($"Change {key}.", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Kestrel:LinuxEpoll")]
    [InlineData("Kestrel:RedHatLinux")]
    public async Task AioSendWithoutDeferredSendsIsRejected(string section)
    {
        var settings = new Dictionary<string, string?>
        {
            [$"{section}:AioSend"] = "true",
            [$"{section}:DeferSend"] = "false",
        };
        await using var app = LoopbackServer.Build(TransportVariant.LinuxEpoll, s_loopback, settings);
        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => app.StartAsync());
        Assert.Contains($"{section}:AioSend", error.Message, StringComparison.Ordinal);
        Assert.Contains("DeferSend=true", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SocketsSettingsReachKestrelsSocketTransportOptions()
    {
        var settings = new Dictionary<string, string?>
        {
            ["Kestrel:Sockets:IOQueueCount"] = "3",
            ["Kestrel:Sockets:UnsafePreferInlineScheduling"] = "true",
            ["Kestrel:Sockets:WaitForDataBeforeAllocatingBuffer"] = "false",
            ["Kestrel:Sockets:NoDelay"] = "false",
            ["Kestrel:Sockets:Backlog"] = "77",
            ["Kestrel:Sockets:MaxReadBufferSize"] = "4096",
            ["Kestrel:Sockets:MaxWriteBufferSize"] = "",
        };
        await using var app = LoopbackServer.Build(TransportVariant.Sockets, s_loopback, settings);
        var options = app.Services.GetRequiredService<IOptions<SocketTransportOptions>>().Value;
        Assert.Equal(3, options.IOQueueCount);
        Assert.True(options.UnsafePreferInlineScheduling);
        Assert.False(options.WaitForDataBeforeAllocatingBuffer);
        Assert.False(options.NoDelay);
        Assert.Equal(77, options.Backlog);
        Assert.Equal(4096, options.MaxReadBufferSize);
        Assert.Null(options.MaxWriteBufferSize);
    }

    [Fact]
    public async Task TransportInfoDescribesTheEffectiveSettings()
    {
        var settings = new Dictionary<string, string?>
        {
            ["Kestrel:LinuxEpoll:ThreadCount"] = "3",
            ["Kestrel:LinuxEpoll:AioReceive"] = "true",
        };
        await using var server = await LoopbackServer.StartAsync(TransportVariant.LinuxEpoll, s_loopback, settings);
        Assert.Equal("LinuxEpoll", server.Transport.Name);
        Assert.Equal(
            "LinuxEpoll (3 threads, application on the thread pool, edge-triggered, AIO receive on, AIO send off, deferred send on)",
            server.Transport.Description);
    }

    private static void SimulateUnavailable(IServiceCollection services) =>
        services.AddSingleton(new TransportProbe { Override = kind => $"simulated: io_uring_setup failed with EPERM (1)." });
}
