using Ingest.Core.Diagnostics;
using Ingest.Hosting.Metrics;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting;

/// <summary>Metrics of both services: the <c>Ingest</c> meter's instruments, <c>GET /metrics</c>, and the
/// <c>Ingest-Counters</c> event source.</summary>
public static class IngestMetricsExtensions
{
    /// <summary>The <c>Metrics</c> options, the <see cref="IngestMetrics"/> instruments the other components record
    /// into, and the listener that aggregates them (with ASP.NET Core's and the runtime's meters).</summary>
    public static WebApplicationBuilder AddIngestMetrics(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        services.AddOptions<MetricsOptions>().BindConfiguration(MetricsOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<MetricsOptions>, MetricsOptionsValidator>();
        services.AddMetrics();
        services.AddSingleton<IngestMetrics>();
        services.AddSingleton<MetricsCollector>();
        services.AddStartupFact("metrics", static sp =>
        {
            var o = sp.GetRequiredService<IOptions<MetricsOptions>>().Value;
            return !o.Enabled ? "off" : o.Port > 0 ? $"127.0.0.1:{o.Port}{MetricsEndpoint.Path}" : MetricsEndpoint.Path;
        });
        return builder;
    }

    /// <summary>Answers <c>GET /metrics</c> (call before <c>MapIngestApi</c>); with <c>Metrics:Port</c>, on that
    /// loopback port only, added to the service's URLs; with <c>Management:Port</c> alone, on that port only.</summary>
    public static WebApplication UseIngestMetrics(this WebApplication app)
    {
        // The Ingest-Counters event source exists from start-up, whether or not /metrics is on, so a counter session
        // (Crank's agent, dotnet-counters) that attaches before the first request finds it.
        GC.KeepAlive(IngestCounters.Log);
        var options = app.Services.GetRequiredService<IOptions<MetricsOptions>>().Value;
        if (!options.Enabled)
        {
            return app;
        }

        // Management:Port, when set, is where the operational endpoints answer (and only they): /metrics too.
        var management = app.Services.GetRequiredService<IOptions<ManagementOptions>>().Value.Port;
        // Resolved now, so the listener is attached before the first request is measured.
        var endpoint = new MetricsEndpoint(
            app.Services.GetRequiredService<MetricsCollector>(), app.Services.GetRequiredService<Internal.ResponseWriter>(), options.Port > 0 ? options.Port : management, exclusive: options.Port > 0 && options.Port != management);
        if (options.Port > 0)
        {
            // Adding an address replaces the configured URLs, so they are copied first (Kestrel's default when none).
            if (app.Urls.Count == 0)
            {
                var urls = app.Configuration[WebHostDefaults.ServerUrlsKey];
                foreach (var url in (string.IsNullOrWhiteSpace(urls) ? "http://localhost:5000" : urls).Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
                {
                    app.Urls.Add(url);
                }
            }

            // Unless the URLs name the port already (Management:Port's convention is to list it there).
            var metricsUrl = $"http://127.0.0.1:{options.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)}";
            if (!app.Urls.Any(u => Uri.TryCreate(u.Replace("*", "localhost", StringComparison.Ordinal).Replace("+", "localhost", StringComparison.Ordinal), UriKind.Absolute, out var uri) && uri.Port == options.Port))
            {
                app.Urls.Add(metricsUrl);
            }
        }

        app.Use(next => context => endpoint.InvokeAsync(context, next));
        return app;
    }
}
