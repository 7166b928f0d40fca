namespace Ingest.LoadGen.Tests;

/// <summary>One Kestrel server per test class: starting it costs more than most tests.</summary>
public sealed class TestServerFixture : IAsyncLifetime
{
    public TestServer Server { get; private set; } = null!;

    public async Task InitializeAsync() => Server = await TestServer.StartAsync();

    public async Task DisposeAsync() => await Server.DisposeAsync();
}
