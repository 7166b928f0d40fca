using System.Net;
using Ingest.Storage.Resp;

namespace Ingest.Storage.Tests.Servers;

/// <summary>A throwaway Redis on loopback; <paramref name="durable"/> keeps streams across a stop and start (AOF,
/// fsync always), for the outage tests.</summary>
public sealed class RedisServer(bool durable = false)
    : ScriptedServer("redis.sh", "redis", durable ? ["--appendonly", "yes", "--appendfsync", "always"] : [])
{
    public string Endpoint => $"127.0.0.1:{Port.ToString(System.Globalization.CultureInfo.InvariantCulture)}";

    internal async Task<RespReply> ExecuteAsync(params string[] arguments)
    {
        using var connection = await RespConnection.ConnectAsync(new IPEndPoint(IPAddress.Loopback, Port), CancellationToken.None);
        return await connection.ExecuteAsync(CancellationToken.None, arguments);
    }

    public async Task<long> StreamLengthAsync(string stream) => (await ExecuteAsync("XLEN", stream)).Integer;
}
