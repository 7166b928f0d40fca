namespace Ingest.Storage.Tests.Servers;

/// <summary>One Redis server for a test class; each test writes its own streams.</summary>
public sealed class RedisFixture : IAsyncLifetime
{
    public RedisServer Server { get; } = new();

    public Task InitializeAsync() => Server.StartAsync();

    public Task DisposeAsync() => Server.DisposeAsync().AsTask();
}
