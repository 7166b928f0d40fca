using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>The registrations behind UseIngestTransport.</summary>
internal static class TransportServices
{
    public static void Add(IServiceCollection services, IConfiguration configuration)
    {
        // One concrete Bind per type, not a generic helper: under Native AOT the configuration binder's source
        // generator writes the binding code per call site and cannot for a generic one.
        services.AddOptions<IngestTransportOptions>().Bind(configuration.GetSection(IngestTransportOptions.SectionName)).ValidateOnStart();
        services.AddOptions<SocketsOptions>().Bind(configuration.GetSection(SocketsOptions.SectionName)).ValidateOnStart();
        services.AddOptions<LinuxEpollOptions>().Bind(configuration.GetSection(LinuxEpollOptions.SectionName)).ValidateOnStart();
        services.AddOptions<IoUringOptions>().Bind(configuration.GetSection(IoUringOptions.SectionName)).ValidateOnStart();
        services.AddOptions<LibuvOptions>().Bind(configuration.GetSection(LibuvOptions.SectionName)).ValidateOnStart();
        services.AddOptions<RedHatLinuxOptions>().Bind(configuration.GetSection(RedHatLinuxOptions.SectionName)).ValidateOnStart();

        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<IngestTransportOptions>, IngestTransportOptionsValidator>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<SocketsOptions>, SocketsOptionsValidator>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<RedHatLinuxOptions>, RedHatLinuxOptionsValidator>());
        services.TryAddSingleton<NativeTransportOptionsValidator>();
        services.AddSingleton<IValidateOptions<LinuxEpollOptions>>(provider => provider.GetRequiredService<NativeTransportOptionsValidator>());
        services.AddSingleton<IValidateOptions<IoUringOptions>>(provider => provider.GetRequiredService<NativeTransportOptionsValidator>());
        services.AddSingleton<IValidateOptions<LibuvOptions>>(provider => provider.GetRequiredService<NativeTransportOptionsValidator>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IConfigureOptions<SocketTransportOptions>, SocketTransportOptionsSetup>());

        services.TryAddSingleton<TransportProbe>();
        services.TryAddSingleton<TransportSelector>();
        services.TryAddSingleton(provider => provider.GetRequiredService<TransportSelector>().Info);
        services.TryAddSingleton(provider => new LoopConnections(provider));

        // Exactly one listener factory: Kestrel's Sockets registration is replaced by the selecting one, which
        // creates Sockets itself when Sockets is the (effective) choice.
        for (var i = services.Count - 1; i >= 0; i--)
        {
            if (services[i].ServiceType == typeof(IConnectionListenerFactory) && services[i].ImplementationType == typeof(SocketTransportFactory))
            {
                services.RemoveAt(i);
            }
        }

        services.AddSingleton<IConnectionListenerFactory, IngestConnectionListenerFactory>();
    }
}
