namespace Ingest.Transports;

/// <summary>
/// The transport Kestrel really uses, for the start-up log line and for results: resolve it from DI after
/// <see cref="IngestTransportWebHostBuilderExtensions.UseIngestTransport"/>.
/// </summary>
public sealed class TransportInfo
{
    internal TransportInfo(TransportKind requested, TransportKind effective, string? fallbackReason, string description)
    {
        Requested = requested;
        Effective = effective;
        FallbackReason = fallbackReason;
        Description = description;
    }

    /// <summary>The value of <c>Kestrel:Transport</c>.</summary>
    public TransportKind Requested { get; }

    /// <summary>The transport in use: <see cref="Requested"/>, or Sockets after a fallback.</summary>
    public TransportKind Effective { get; }

    /// <summary>The effective transport's name, e.g. <c>LinuxEpoll</c>.</summary>
    public string Name => Effective.ToString();

    /// <summary>Why <see cref="Requested"/> could not run, when Kestrel fell back to Sockets; otherwise null.</summary>
    public string? FallbackReason { get; }

    /// <summary>One line with the transport and its effective settings, e.g. <c>LinuxEpoll (2 threads, ...)</c>.</summary>
    public string Description { get; }

    /// <inheritdoc />
    public override string ToString() => Description;
}
