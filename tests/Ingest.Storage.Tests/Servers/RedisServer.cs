using StackExchange.Redis;

namespace Ingest.Storage.Tests.Servers;

/// <summary>A throwaway Redis on loopback; <paramref name="durable"/> keeps streams across a stop and start (AOF,
/// fsync always), for the outage tests.</summary>
public sealed class RedisServer(bool durable = false)
    : ScriptedServer("redis.sh", "redis", durable ? ["--appendonly", "yes", "--appendfsync", "always"] : [])
{
    public string Endpoint => $"127.0.0.1:{Port.ToString(System.Globalization.CultureInfo.InvariantCulture)}";

    public Task<long> StreamLengthAsync(string stream) => WithDatabaseAsync(db => db.StreamLengthAsync(stream));

    /// <summary>The stream's first entry, its fields in the order they were written.</summary>
    public Task<StreamEntry> FirstEntryAsync(string stream) =>
        WithDatabaseAsync(async db => Assert.Single(await db.StreamRangeAsync(stream, count: 1)));

    public Task<bool> SetStringAsync(string key, string value) => WithDatabaseAsync(db => db.StringSetAsync(key, value));

    // A connection per call: the test's own view of the server, independent of the sink's connections.
    private async Task<T> WithDatabaseAsync<T>(Func<IDatabase, Task<T>> call)
    {
        await using var connection = await ConnectionMultiplexer.ConnectAsync(Endpoint);
        return await call(connection.GetDatabase());
    }
}
