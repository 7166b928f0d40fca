namespace Ingest.Transports;

/// <summary>
/// Transport selection, bound from the <c>Kestrel</c> section (only the two keys below; Kestrel reads its own
/// keys from the same section).
/// </summary>
public sealed class IngestTransportOptions
{
    /// <summary>The configuration section: <c>Kestrel</c>.</summary>
    public const string SectionName = "Kestrel";

    /// <summary>Which transport Kestrel uses (<c>Kestrel:Transport</c>). Defaults to <see cref="TransportKind.Sockets"/>.</summary>
    public TransportKind Transport { get; set; } = TransportKind.Sockets;

    /// <summary>
    /// When the selected transport cannot run on this machine, use Sockets instead of failing at start-up, and log
    /// why (<c>Kestrel:TransportFallback</c>). Defaults to <see langword="false"/>: a benchmark must not silently
    /// measure a different transport.
    /// </summary>
    public bool TransportFallback { get; set; }
}
