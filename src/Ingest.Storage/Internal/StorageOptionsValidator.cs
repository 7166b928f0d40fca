using System.Text.RegularExpressions;
using Ingest.Core.Configuration;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Options;

namespace Ingest.Storage.Internal;

/// <summary>
/// Start-up checks of the stores' options, made only for the stores some type uses (an unused section may be
/// empty). Every message names the key to fix.
/// </summary>
internal sealed partial class StorageOptionsValidator(IOptions<SinkOptions> sinks)
    : IValidateOptions<PostgreSqlSinkOptions>, IValidateOptions<RedisSinkOptions>, IValidateOptions<FileSinkOptions>
{
    private const int MaxBatchEvents = 100_000;

    public ValidateOptionsResult Validate(string? name, PostgreSqlSinkOptions options)
    {
        if (!Uses(SinkKind.PostgreSql))
        {
            return ValidateOptionsResult.Skip;
        }

        var checks = Batching(new OptionChecks(PostgreSqlSinkOptions.SectionName), options)
            .Range(nameof(options.PoolSize), options.PoolSize, 1, 256);
        if (string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            checks.Fail($"{checks.Key(nameof(options.ConnectionString))} is empty: set it when a type uses the PostgreSQL sink, e.g. Host=127.0.0.1;Port=5432;Username=ingest;Database=postgres");
        }
        else
        {
            try
            {
                _ = new Npgsql.NpgsqlConnectionStringBuilder(options.ConnectionString);
            }
            catch (ArgumentException ex)
            {
                checks.Fail($"{checks.Key(nameof(options.ConnectionString))} is not a valid connection string: {ex.Message}");
            }
        }

        if (!Identifier().IsMatch(options.Table))
        {
            checks.Fail($"{checks.Key(nameof(options.Table))} = '{options.Table}' is not a lower-case identifier (letters, digits, _; at most 63).");
        }

        return checks.Result();
    }

    public ValidateOptionsResult Validate(string? name, RedisSinkOptions options)
    {
        if (!Uses(SinkKind.Redis))
        {
            return ValidateOptionsResult.Skip;
        }

        var checks = Batching(new OptionChecks(RedisSinkOptions.SectionName), options)
            .Range(nameof(options.Connections), options.Connections, 1, 256)
            .Range(nameof(options.MaxLength), options.MaxLength, 0, long.MaxValue, "0 keeps every entry")
            .Range(nameof(options.ConnectTimeoutMilliseconds), options.ConnectTimeoutMilliseconds, 1, 600_000);
        if (!RedisSink.TryParseEndpoint(options.Endpoint, out _, out _))
        {
            checks.Fail($"{checks.Key(nameof(options.Endpoint))} = '{options.Endpoint}' is not host:port, e.g. 127.0.0.1:6379");
        }

        foreach (var (key, stream) in new[] { (nameof(options.JobStream), options.JobStream), (nameof(options.MetricStream), options.MetricStream), (nameof(options.LogStream), options.LogStream) })
        {
            if (string.IsNullOrEmpty(stream))
            {
                checks.Fail($"{checks.Key(key)} is empty: name the stream, e.g. ingest:job");
            }
        }

        return checks.Result();
    }

    public ValidateOptionsResult Validate(string? name, FileSinkOptions options)
    {
        if (!Uses(SinkKind.File))
        {
            return ValidateOptionsResult.Skip;
        }

        var checks = Batching(new OptionChecks(FileSinkOptions.SectionName), options)
            .Defined(nameof(options.Flush), options.Flush)
            .Range(nameof(options.FlushIntervalMilliseconds), options.FlushIntervalMilliseconds, 1, 3_600_000)
            .Range(nameof(options.RotateBytes), options.RotateBytes, 4_096, long.MaxValue);
        if (string.IsNullOrWhiteSpace(options.Directory))
        {
            checks.Fail($"{checks.Key(nameof(options.Directory))} is empty: set the directory the NDJSON files go to when a type uses the file sink.");
        }

        return checks.Result();
    }

    private static OptionChecks Batching(OptionChecks checks, StoreBatchOptions options) => checks
        .Range(nameof(options.BatchMaxEvents), options.BatchMaxEvents, 1, MaxBatchEvents)
        .Range(nameof(options.LingerMilliseconds), options.LingerMilliseconds, 0, 10_000)
        .Range(nameof(options.QueueCapacity), options.QueueCapacity, 1, 1_000_000)
        .Range(nameof(options.RetryAfterSeconds), options.RetryAfterSeconds, 0, 3_600)
        .Range(nameof(options.WriteTimeoutMilliseconds), options.WriteTimeoutMilliseconds, 1, 600_000);

    private bool Uses(SinkKind kind)
    {
        var o = sinks.Value;
        return (o.Job ?? o.Default) == kind || (o.Metric ?? o.Default) == kind || (o.Log ?? o.Default) == kind;
    }

    [GeneratedRegex("^[a-z_][a-z0-9_]{0,62}$")]
    private static partial Regex Identifier();
}
