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
        AddValidated<IngestTransportOptions>(services, configuration, IngestTransportOptions.SectionName);
        AddValidated<SocketsOptions>(services, configuration, SocketsOptions.SectionName);
        AddValidated<LinuxEpollOptions>(services, configuration, LinuxEpollOptions.SectionName);
        AddValidated<IoUringOptions>(services, configuration, IoUringOptions.SectionName);
        AddValidated<LibuvOptions>(services, configuration, LibuvOptions.SectionName);

        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<IngestTransportOptions>, IngestTransportOptionsValidator>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<SocketsOptions>, SocketsOptionsValidator>());
        services.TryAddSingleton<NativeTransportOptionsValidator>();
        services.AddSingleton<IValidateOptions<LinuxEpollOptions>>(provider => provider.GetRequiredService<NativeTransportOptionsValidator>());
        services.AddSingleton<IValidateOptions<IoUringOptions>>(provider => provider.GetRequiredService<NativeTransportOptionsValidator>());
        services.AddSingleton<IValidateOptions<LibuvOptions>>(provider => provider.GetRequiredService<NativeTransportOptionsValidator>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IConfigureOptions<SocketTransportOptions>, SocketTransportOptionsSetup>());

        services.TryAddSingleton<TransportProbe>();
        services.TryAddSingleton<TransportSelector>();
        services.TryAddSingleton(provider => provider.GetRequiredService<TransportSelector>().Info);

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

    private static void AddValidated<TOptions>(IServiceCollection services, IConfiguration configuration, string section)
        where TOptions : class =>
        services.AddOptions<TOptions>().Bind(configuration.GetSection(section)).ValidateOnStart();
}
