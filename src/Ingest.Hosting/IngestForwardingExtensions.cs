using Ingest.Core.Forwarding;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Http;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting;

/// <summary>The front-end's forwarding: client strategy, protocol, per-event or batched.</summary>
public static class IngestForwardingExtensions
{
    public static WebApplicationBuilder AddIngestForwarding(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        services.AddOptions<ForwardingOptions>()
            .Configure<IConfiguration>(static (_, configuration) =>
                ForwardingOptionsValidator.RefuseUnknownNames(configuration.GetSection(ForwardingOptions.SectionName)))
            .BindConfiguration(ForwardingOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<ForwardingOptions>, ForwardingOptionsValidator>();
        // One set of per-back-end pipelines (breakers included) for the whole front-end, whatever the client strategy.
        services.AddSingleton<BackEndResilience>();
        services.AddSingleton<BackEndHandlerFactory>();
        services.AddSingleton<IForwardLoops, Internal.TransportForwardLoops>();

        // The typed client for ClientStrategy.Factory; registering it costs nothing when another strategy runs. Its
        // resilience handler is the one the other strategies chain by hand, over the same shared pipelines.
        services.AddHttpClient<BackEndHttpClient>()
            .ConfigurePrimaryHttpMessageHandler(static sp => sp.GetRequiredService<BackEndHandlerFactory>().CreatePrimary())
            .AddHttpMessageHandler(static sp => sp.GetRequiredService<BackEndResilience>().CreateHandler())
            .ConfigureHttpClient(static client => client.Timeout = Timeout.InfiniteTimeSpan);
        services.AddOptions<HttpClientFactoryOptions>(nameof(BackEndHttpClient))
            .Configure<IOptions<ForwardingOptions>>(static (factory, forwarding) =>
                factory.HandlerLifetime = TimeSpan.FromSeconds(forwarding.Value.HandlerLifetimeSeconds));

        services.AddSingleton(static sp => Forwarding(sp).ClientStrategy.CreateSender(sp));
        services.AddSingleton<BackEndForwarder>();
        services.AddSingleton(static sp =>
        {
            var options = sp.GetRequiredService<IOptions<ForwardingOptions>>();
            IEventForwarder forwarder = sp.GetRequiredService<BackEndForwarder>();
            if (options.Value.Mode == ForwardingMode.Batched)
            {
                forwarder = new BatchingForwarder(forwarder, options, sp.GetService<Core.Diagnostics.IngestMetrics>());
            }

            // Outermost: admission, so an overloaded front-end refuses before queueing anything.
            return new AdmissionForwarder(forwarder, options);
        });
        services.AddSingleton<IEventForwarder>(static sp => sp.GetRequiredService<AdmissionForwarder>());

        services.AddStartupFact("clients", static sp => Forwarding(sp).ClientStrategy.ToString());
        services.AddStartupFact("forwarding", static sp => Forwarding(sp).Mode.ToString());
        services.AddStartupFact("protocol", static sp => Forwarding(sp).Protocol.ToString());
        services.AddStartupFact("backends", static sp => string.Join(",", Forwarding(sp).BackEnds));
        return builder;
    }

    private static ForwardingOptions Forwarding(IServiceProvider services) => services.GetRequiredService<IOptions<ForwardingOptions>>().Value;
}
