using System.Globalization;
using System.Net;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Sinks;
using Ingest.Storage.Resp;
using Microsoft.Extensions.Logging;

namespace Ingest.Storage.Internal;

/// <summary>
/// Appends every event to its type's stream with <c>XADD</c>, a field per member of the normalised event. A batch
/// is one pipeline: all its commands written into one buffer, sent with one flush, then one reply read per
/// command; the batch is acknowledged only when every reply is an entry id. A writer whose connection failed
/// reconnects on its next batch.
/// </summary>
internal sealed class RedisSink : BatchingSink, IStoreInitializer
{
    private readonly RedisSinkOptions _options;
    private readonly string[] _streams;
    private readonly RespConnection?[] _connections;

    public RedisSink(RedisSinkOptions options, IngestMetrics? metrics, ILoggerFactory loggers)
        : base(SinkKind.Redis, options, options.Connections, metrics, loggers.CreateLogger<RedisSink>())
    {
        _options = options;
        _streams = [options.JobStream, options.MetricStream, options.LogStream];
        _connections = new RespConnection?[options.Connections];
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

    /// <summary>Checks the server answers, so a wrong endpoint fails the start instead of the first request.</summary>
    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        try
        {
            using var connection = await ConnectAsync(cancellationToken);
            var pong = await connection.ExecuteAsync(cancellationToken, "PING");
            if (pong.IsError)
            {
                throw new RespServerException(pong.Text ?? "");
            }
        }
        catch (Exception ex) when (ex is System.Net.Sockets.SocketException or RespServerException or RespProtocolException or OperationCanceledException)
        {
            throw new InvalidOperationException($"{RedisSinkOptions.SectionName}:Endpoint: {Store} does not answer PING: {ex.Message}", ex);
        }
    }

    protected override async Task WriteBatchAsync(List<IngestEvent> events, int writer, CancellationToken cancellationToken)
    {
        var connection = _connections[writer];
        if (connection is not { IsConnected: true })
        {
            connection?.Dispose();
            _connections[writer] = null;
            connection = _connections[writer] = await ConnectAsync(cancellationToken);
        }

        try
        {
            var commands = connection.Commands;
            foreach (var e in events)
            {
                Append(commands, e);
            }

            await connection.FlushAsync(cancellationToken);
            string? error = null;
            for (var i = 0; i < events.Count; i++)
            {
                // Every reply is read even after an error, so the connection stays in step for the next batch.
                var reply = await connection.ReadReplyAsync(cancellationToken);
                if (reply.IsError)
                {
                    error ??= reply.Text;
                }
            }

            if (error is not null)
            {
                throw new RespServerException(error);
            }
        }
        catch (Exception ex) when (ex is not RespServerException)
        {
            // Broken mid-pipeline (or timed out): the replies are out of step, so this connection is done.
            connection.Dispose();
            _connections[writer] = null;
            throw;
        }
    }

    protected override ValueTask DisposeStoreAsync()
    {
        foreach (var connection in _connections)
        {
            connection?.Dispose();
        }

        return ValueTask.CompletedTask;
    }

    private void Append(RespCommandWriter commands, IngestEvent e)
    {
        // XADD stream [MAXLEN ~ n] * field value ...: the field pairs present on this event.
        var fields = 4 + (e.JobId is null ? 0 : 1) + (e.ContainerId is null ? 0 : 1) + (e.Status is null ? 0 : 1) + (e.Name is null ? 0 : 1) +
            (e.Value is null ? 0 : 1) + (e.Unit is null ? 0 : 1) + (e.Level is null ? 0 : 1) + (e.Message is null ? 0 : 1);
        commands.Begin(3 + (_options.MaxLength > 0 ? 3 : 0) + (2 * fields));
        commands.Argument("XADD"u8);
        commands.Argument(_streams[(int)e.Type!.Value]);
        if (_options.MaxLength > 0)
        {
            commands.Argument("MAXLEN"u8);
            commands.Argument("~"u8);
            commands.Argument(_options.MaxLength);
        }

        commands.Argument("*"u8);
        commands.Argument("type"u8);
        commands.Argument(e.Type switch { EventType.Job => "job"u8, EventType.Metric => "metric"u8, _ => "log"u8 });
        commands.Argument("source"u8);
        commands.Argument(e.Source);
        commands.Argument("timestamp"u8);
        commands.Argument(e.Timestamp);
        commands.Argument("received_at"u8);
        commands.Argument(e.ReceivedAt);
        Field(commands, "job_id"u8, e.JobId);
        Field(commands, "container_id"u8, e.ContainerId);
        Field(commands, "status"u8, e.Status);
        Field(commands, "name"u8, e.Name);
        if (e.Value is { } value)
        {
            commands.Argument("value"u8);
            commands.Argument(value);
        }

        Field(commands, "unit"u8, e.Unit);
        Field(commands, "level"u8, e.Level);
        Field(commands, "message"u8, e.Message);
    }

    private static void Field(RespCommandWriter commands, ReadOnlySpan<byte> name, string? value)
    {
        if (value is not null)
        {
            commands.Argument(name);
            commands.Argument(value);
        }
    }

    private async Task<RespConnection> ConnectAsync(CancellationToken cancellationToken)
    {
        if (!TryParseEndpoint(_options.Endpoint, out var host, out var port))
        {
            throw new InvalidOperationException($"{RedisSinkOptions.SectionName}:Endpoint = '{_options.Endpoint}' is not host:port.");
        }

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_options.ConnectTimeoutMilliseconds);
        EndPoint endpoint = IPAddress.TryParse(host, out var address) ? new IPEndPoint(address, port) : new DnsEndPoint(host, port);
        return await RespConnection.ConnectAsync(endpoint, timeout.Token);
    }
}
