using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.Internal.Adapters;

/// <summary>
/// A transport whose implementation lives in an assembly of its own because it needs a package not every build has
/// (<see cref="TransportKind.RedHatLinux"/>). The assembly names its adapter with <see cref="TransportAdapterAttribute"/>;
/// <see cref="TransportAdapters"/> finds it by assembly name, so no shared code is compiled differently.
/// </summary>
internal abstract class TransportAdapter
{
    /// <summary>The transport this adapter provides.</summary>
    public abstract TransportKind Kind { get; }

    /// <summary>Null when the transport can run here with its settings; otherwise why not, as a sentence.</summary>
    public abstract string? WhyUnavailable(IServiceProvider services);

    /// <summary>The listener factory Kestrel binds through; called once, after <see cref="WhyUnavailable"/> said null.</summary>
    public abstract IConnectionListenerFactory CreateFactory(IServiceProvider services);

    /// <summary>One line with the transport and its effective settings, for the start-up log and results.</summary>
    public abstract string Describe(IServiceProvider services);
}
