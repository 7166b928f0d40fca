namespace Ingest.Hosting;

/// <summary>The Prometheus endpoint of both services. Bound from the <c>Metrics</c> section.</summary>
public sealed class MetricsOptions
{
    public const string SectionName = "Metrics";

    /// <summary>Listen to the meters and answer <c>GET /metrics</c>. Off, no listener is attached and the
    /// instruments cost nothing. Defaults to true.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>Serve <c>/metrics</c> on its own loopback port (<c>http://127.0.0.1:Port</c>, added to the
    /// service's URLs) and only there; 0 serves it on the main endpoints. Defaults to 0.</summary>
    public int Port { get; set; }
}
