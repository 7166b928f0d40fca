using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Logging;
using Npgsql;
using NpgsqlTypes;

namespace Ingest.Storage.Internal;

/// <summary>
/// Writes each batch with one binary COPY into one table. A COPY outside a transaction block is one statement,
/// so it commits as a whole or not at all: when <see cref="WriteBatchAsync"/> returns, every row is committed.
/// </summary>
/// <remarks>One table with a <c>type</c> column rather than one per type: a batch mixes types (the router hands
/// this sink every type configured for it), and one table keeps it one COPY and one round trip. The
/// type-specific columns are nullable, and PostgreSQL stores a null in one bit of the row's null bitmap, so the
/// unused ones cost next to nothing.</remarks>
internal sealed class PostgreSqlSink : BatchingSink, IStoreInitializer
{
    private static readonly string[] TypeNames = ["job", "metric", "log"];

    private readonly NpgsqlDataSource _dataSource;
    private readonly string _table;
    private readonly string _copy;
    private readonly TimeSpan _timeout;

    public PostgreSqlSink(PostgreSqlSinkOptions options, IngestMetrics? metrics, ILoggerFactory loggers)
        : base(SinkKind.PostgreSql, options, options.PoolSize, metrics, loggers.CreateLogger<PostgreSqlSink>())
    {
        // The slim builder: no JSON, ranges or other plug-ins this sink never writes, and trimming-safe.
        var builder = new NpgsqlSlimDataSourceBuilder(options.ConnectionString);
        builder.ConnectionStringBuilder.MaxPoolSize = options.PoolSize + 1; // a writer each, and one for the schema
        builder.UseLoggerFactory(loggers);
        _dataSource = builder.Build();
        _table = options.Table;
        _timeout = TimeSpan.FromMilliseconds(options.WriteTimeoutMilliseconds);
        _copy = $"COPY {_table} (type, source, \"timestamp\", received_at, job_id, container_id, status, name, value, unit, level, message) FROM STDIN (FORMAT BINARY)";
        var host = builder.ConnectionStringBuilder;
        Store = $"PostgreSQL at {host.Host}:{host.Port}";
    }

    protected override string Store { get; }

    /// <summary>The table's definition; <c>IF NOT EXISTS</c>, so any number of back-ends may start at once.</summary>
    public string Schema => $"""
        CREATE TABLE IF NOT EXISTS {_table} (
            type         text NOT NULL,
            source       text NOT NULL,
            "timestamp"  timestamptz NOT NULL,
            received_at  timestamptz NOT NULL,
            job_id       text,
            container_id text,
            status       text,
            name         text,
            value        double precision,
            unit         text,
            level        text,
            message      text
        )
        """;

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        try
        {
            await using var command = _dataSource.CreateCommand(Schema);
            await command.ExecuteNonQueryAsync(cancellationToken);
        }
        catch (Exception ex) when (ex is NpgsqlException or System.Net.Sockets.SocketException or TimeoutException)
        {
            throw new InvalidOperationException(
                $"{PostgreSqlSinkOptions.SectionName}:ConnectionString: cannot create the table '{_table}' in {Store}: {ex.Message}", ex);
        }
    }

    protected override async Task WriteBatchAsync(List<IngestEvent> events, int writer, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await using var importer = await connection.BeginBinaryImportAsync(_copy, cancellationToken);
        importer.Timeout = _timeout;
        foreach (var e in events)
        {
            await importer.StartRowAsync(cancellationToken);
            await importer.WriteAsync(TypeNames[(int)e.Type!.Value], NpgsqlDbType.Text, cancellationToken);
            await importer.WriteAsync(e.Source, NpgsqlDbType.Text, cancellationToken);
            await importer.WriteAsync(Utc(e.Timestamp), NpgsqlDbType.TimestampTz, cancellationToken);
            await importer.WriteAsync(Utc(e.ReceivedAt), NpgsqlDbType.TimestampTz, cancellationToken);
            await TextAsync(importer, e.JobId, cancellationToken);
            await TextAsync(importer, e.ContainerId, cancellationToken);
            await TextAsync(importer, e.Status, cancellationToken);
            await TextAsync(importer, e.Name, cancellationToken);
            if (e.Value is { } value)
            {
                await importer.WriteAsync(value, NpgsqlDbType.Double, cancellationToken);
            }
            else
            {
                await importer.WriteNullAsync(cancellationToken);
            }

            await TextAsync(importer, e.Unit, cancellationToken);
            await TextAsync(importer, e.Level, cancellationToken);
            await TextAsync(importer, e.Message, cancellationToken);
        }

        // The commit: until CompleteAsync returns, nothing of the batch is visible or acknowledged.
        await importer.CompleteAsync(cancellationToken);
    }

    protected override ValueTask DisposeStoreAsync() => _dataSource.DisposeAsync();

    private static Task TextAsync(NpgsqlBinaryImporter importer, string? value, CancellationToken cancellationToken) =>
        value is null ? importer.WriteNullAsync(cancellationToken) : importer.WriteAsync(value, NpgsqlDbType.Text, cancellationToken);

    // Normalised events are UTC; a reader may leave the kind unspecified, which timestamptz refuses.
    private static DateTime Utc(DateTime value) => value.Kind switch
    {
        DateTimeKind.Utc => value,
        DateTimeKind.Local => value.ToUniversalTime(),
        _ => DateTime.SpecifyKind(value, DateTimeKind.Utc),
    };
}
