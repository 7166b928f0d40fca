using System.Globalization;
using Npgsql;

namespace Ingest.Storage.Tests.Servers;

/// <summary>A throwaway PostgreSQL 15 on loopback. fsync off: the tests check what the sink acknowledged against what
/// the server holds, not the disk's durability, and 2 shared cores are slow enough.</summary>
public sealed class PostgreSqlServer() : ScriptedServer("postgres.sh", "pg", "-c", "fsync=off", "-c", "synchronous_commit=off")
{
    public string ConnectionString => $"Host=127.0.0.1;Port={Port.ToString(CultureInfo.InvariantCulture)};Username=ingest;Database=postgres;Timeout=5";

    public async Task<long> ScalarAsync(string sql)
    {
        await using var connection = new NpgsqlConnection(ConnectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        return Convert.ToInt64(await command.ExecuteScalarAsync(), CultureInfo.InvariantCulture);
    }
}
