using Ingest.Transports.Internal.Core;

namespace Ingest.Transports.Internal;

/// <summary>
/// Asks a backend whether it can run here. A test replaces this service to simulate a machine without
/// io_uring or libuv; production code never sets <see cref="Override"/>.
/// </summary>
internal sealed class TransportProbe
{
    public Func<TransportKind, string?>? Override { get; init; }

    public string? WhyUnavailable(TransportBackend backend) => Override is { } simulate ? simulate(backend.Kind) : backend.WhyUnavailable();
}
