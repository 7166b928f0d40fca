using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Logging;
using StackExchange.Redis;

namespace Ingest.Storage.Internal;

/// <summary>
/// Appends every event to its type's stream with <c>XADD</c>, a field per member of the normalised event, through
/// StackExchange.Redis. Each writer has a multiplexer of its own (<see cref="RedisSinkOptions.Connections"/>), so a
/// batch is one pipeline on one socket: every <c>XADD</c> queued in an <see cref="IBatch"/>, sent together, then
/// every reply awaited; the batch is acknowledged only when each of them answered an entry id. While the server is
/// down the multiplexer reconnects in the background and commands fail at once (no queueing, no retry), so the
/// back-end answers 503 instead of waiting.
/// </summary>
internal sealed class RedisSink : BatchingSink, IStoreInitializer
{
    private static readonly RedisValue[] TypeNames = ["job", "metric", "log"];

    private readonly RedisSinkOptions _options;
    private readonly RedisKey[] _streams;
    private readonly StreamAddOptions _add;
    private readonly ConnectionMultiplexer?[] _connections;

    public RedisSink(RedisSinkOptions options, IngestMetrics? metrics, ILoggerFactory loggers)
        : base(SinkKind.Redis, options, options.Connections, metrics, loggers.CreateLogger<RedisSink>())
    {
        _options = options;
        _streams = [options.JobStream, options.MetricStream, options.LogStream];
        // XADD stream [MAXLEN ~ n] * field value ...
        _add = options.MaxLength > 0 ? new StreamAddOptions { MaxLength = options.MaxLength, Approximate = true } : default;
        _connections = new ConnectionMultiplexer?[options.Connections];
        Store = $"Redis at {options.Endpoint}";
    }

    protected override string Store { get; }

    /// <summary>Parses <c>host:port</c>; the validator calls it too, so a bad endpoint stops the start.</summary>
    public static bool TryParseEndpoint(string text, out string host, out int port)
    {
        host = "";
        port = 0;
        var colon = text.LastIndexOf(':');
        if (colon <= 0 || !int.TryParse(text.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out port) || port is < 1 or > 65_535)
        {
            return false;
        }

        host = text[..colon].Trim('[', ']');
        return host.Length > 0;
    }

    /// <summary>Opens every writer's multiplexer and checks the server answers on each, so a wrong endpoint fails
    /// the start instead of the first request.</summary>
    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        try
        {
            for (var writer = 0; writer < _connections.Length; writer++)
            {
                var connection = await ConnectionAsync(writer);
                await connection.GetDatabase().PingAsync().WaitAsync(cancellationToken);
            }
        }
        catch (Exception ex) when (ex is RedisException or TimeoutException or SocketException or OperationCanceledException)
        {
            throw new InvalidOperationException($"{RedisSinkOptions.SectionName}:Endpoint: {Store} does not answer PING: {ex.Message}", ex);
        }
    }

    protected override async Task WriteBatchAsync(List<IngestEvent> events, int writer, CancellationToken cancellationToken)
    {
        var connection = await ConnectionAsync(writer);
        var batch = connection.GetDatabase().CreateBatch();
        var replies = new Task<RedisValue>[events.Count];
        for (var i = 0; i < events.Count; i++)
        {
            var e = events[i];
            replies[i] = batch.StreamAddAsync(_streams[(int)e.Type!.Value], Fields(e), _add);
        }

        batch.Execute();
        // Every reply is awaited even after a failure: nothing of the batch is left unobserved.
        await Task.WhenAll(replies).WaitAsync(cancellationToken);
        foreach (var reply in replies)
        {
            if (reply.Result.IsNull)
            {
                throw new RedisException("XADD answered no entry id.");
            }
        }
    }

    protected override async ValueTask DisposeStoreAsync()
    {
        foreach (var connection in _connections)
        {
            if (connection is not null)
            {
                await connection.DisposeAsync();
            }
        }
    }

    /// <summary>The normalised event's members present on this event, always in the same order.</summary>
    private static NameValueEntry[] Fields(IngestEvent e)
    {
        var count = 4 + (e.JobId is null ? 0 : 1) + (e.ContainerId is null ? 0 : 1) + (e.Status is null ? 0 : 1) + (e.Name is null ? 0 : 1) +
            (e.Value is null ? 0 : 1) + (e.Unit is null ? 0 : 1) + (e.Level is null ? 0 : 1) + (e.Message is null ? 0 : 1);
        var fields = new NameValueEntry[count];
        var n = 0;
        fields[n++] = new("type", TypeNames[(int)e.Type!.Value]);
        fields[n++] = new("source", e.Source);
        fields[n++] = new("timestamp", e.Timestamp.ToString("O", CultureInfo.InvariantCulture));
        fields[n++] = new("received_at", e.ReceivedAt.ToString("O", CultureInfo.InvariantCulture));
        Field(fields, ref n, "job_id", e.JobId);
        Field(fields, ref n, "container_id", e.ContainerId);
        Field(fields, ref n, "status", e.Status);
        Field(fields, ref n, "name", e.Name);
        if (e.Value is { } value)
        {
            // The shortest text that round-trips, as JSON writes it.
            fields[n++] = new("value", value.ToString("R", CultureInfo.InvariantCulture));
        }

        Field(fields, ref n, "unit", e.Unit);
        Field(fields, ref n, "level", e.Level);
        Field(fields, ref n, "message", e.Message);
        return fields;
    }

    private static void Field(NameValueEntry[] fields, ref int n, RedisValue name, string? value)
    {
        if (value is not null)
        {
            fields[n++] = new(name, value);
        }
    }

    /// <summary>The writer's multiplexer, opened on first use. It stays for the sink's life: after a failure it
    /// reconnects by itself, so a writer never has to reopen it.</summary>
    private async Task<ConnectionMultiplexer> ConnectionAsync(int writer) =>
        _connections[writer] ??= await ConnectionMultiplexer.ConnectAsync(Configuration());

    private ConfigurationOptions Configuration()
    {
        if (!TryParseEndpoint(_options.Endpoint, out var host, out var port))
        {
            throw new InvalidOperationException($"{RedisSinkOptions.SectionName}:Endpoint = '{_options.Endpoint}' is not host:port.");
        }

        var configuration = new ConfigurationOptions
        {
            // Start even while the server is down (the first PING says so); reconnect in the background afterwards.
            AbortOnConnectFail = false,
            ConnectRetry = 1,
            ConnectTimeout = _options.ConnectTimeoutMilliseconds,
            SyncTimeout = _options.WriteTimeoutMilliseconds,
            AsyncTimeout = _options.WriteTimeoutMilliseconds,
            // A reconnect attempt at every heartbeat (1 s) while the server is away, not an ever longer back-off.
            ReconnectRetryPolicy = new LinearRetry(0),
            // No connection: fail at once (the back-end answers 503) rather than queue commands until they time out.
            BacklogPolicy = BacklogPolicy.FailFast,
            // A command that failed is not sent again: a replayed XADD could append an entry twice, and a failed
            // batch is answered 503, which the caller retries as a whole.
            RetryPolicy = StackExchange.Redis.Availability.RetryPolicy.None,
            // Streams only, no pub/sub: one socket per multiplexer, not an extra subscription connection.
            CommandMap = CommandMap.Create(["SUBSCRIBE"], available: false),
            ClientName = "ingest",
            // The failure's message goes into the 503's detail and the log: the reason, not the client's internals.
            IncludeDetailInExceptions = false,
        };
        configuration.EndPoints.Add(IPAddress.TryParse(host, out var address) ? new IPEndPoint(address, port) : new DnsEndPoint(host, port));
        return configuration;
    }
}
