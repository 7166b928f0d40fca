namespace Ingest.Storage;

/// <summary>The Redis sink. Bound from <c>Sinks:Redis</c>; checked at start-up only when a type uses it.</summary>
public sealed class RedisSinkOptions : StoreBatchOptions
{
    public const string SectionName = "Sinks:Redis";

    /// <summary>The server as <c>host:port</c>. Defaults to <c>127.0.0.1:6379</c>.</summary>
    public string Endpoint { get; set; } = "127.0.0.1:6379";

    /// <summary>The stream job events are appended to. Defaults to <c>ingest:job</c>.</summary>
    public string JobStream { get; set; } = "ingest:job";

    /// <summary>The stream metric events are appended to. Defaults to <c>ingest:metric</c>.</summary>
    public string MetricStream { get; set; } = "ingest:metric";

    /// <summary>The stream log events are appended to. Defaults to <c>ingest:log</c>.</summary>
    public string LogStream { get; set; } = "ingest:log";

    /// <summary>Trim each stream to about this many entries on every append (<c>XADD … MAXLEN ~ n</c>, which trims
    /// whole macro nodes only, so cheaply); 0 keeps everything. Defaults to 0.</summary>
    public long MaxLength { get; set; }

    /// <summary>Connections (a StackExchange.Redis multiplexer each, one socket), each with its own writer sending
    /// whole pipelines. Defaults to 2.</summary>
    public int Connections { get; set; } = 2;

    /// <summary>Longest wait for a connection to open. Defaults to 2,000 ms.</summary>
    public int ConnectTimeoutMilliseconds { get; set; } = 2_000;
}
