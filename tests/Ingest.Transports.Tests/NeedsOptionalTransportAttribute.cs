namespace Ingest.Transports.Tests;

/// <summary>
/// On a conformance suite class: its tests are skipped, with the reason, when this build lacks the transport
/// (read by <see cref="TransportFactDiscoverer"/> and <see cref="TransportTheoryDiscoverer"/>).
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class NeedsOptionalTransportAttribute(TransportKind kind) : Attribute
{
    public TransportKind Kind { get; } = kind;
}
