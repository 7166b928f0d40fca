using Ingest.Transports.Internal.Adapters;
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

    /// <summary>Null when <paramref name="kind"/> (not Sockets) can run here; otherwise why not.</summary>
    public string? WhyUnavailable(TransportKind kind, IServiceProvider services)
    {
        if (Override is { } simulate)
        {
            return simulate(kind);
        }

        return TransportAdapters.IsAdapted(kind)
            ? TransportAdapters.WhyUnavailable(kind, services)
            : WhyUnavailable(TransportBackends.Create(kind, services));
    }
}
