namespace Ingest.Storage.Tests.Servers;

/// <summary>One PostgreSQL server for a test class; each test writes its own table.</summary>
public sealed class PostgreSqlFixture : IAsyncLifetime
{
    public PostgreSqlServer Server { get; } = new();

    public Task InitializeAsync() => Server.StartAsync();

    public Task DisposeAsync() => Server.DisposeAsync().AsTask();
}
