using System.Globalization;
using Ingest.Core.Sinks;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting;

/// <summary>The back-end's sinks: which store gets each event type, and the statistics behind /ingest/stats.</summary>
public static class IngestSinkExtensions
{
    public static WebApplicationBuilder AddIngestSinks(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        services.AddOptions<SinkOptions>().BindConfiguration(SinkOptions.SectionName).ValidateOnStart();
        services.AddOptions<FaultOptions>().BindConfiguration(FaultOptions.SectionName).ValidateOnStart();
        // The memory the GC may use, read once: the idempotency window is sized to it (or an explicit capacity checked).
        services.AddSingleton(static _ => WindowBudget.FromRuntime());
        services.AddSingleton<SinkOptionsValidator>();
        services.AddSingleton<IValidateOptions<SinkOptions>>(static sp => sp.GetRequiredService<SinkOptionsValidator>());
        services.AddSingleton<IValidateOptions<FaultOptions>>(static sp => sp.GetRequiredService<SinkOptionsValidator>());
        services.AddOptions<IdempotencyOptions>().BindConfiguration(IdempotencyOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<IdempotencyOptions>>(static sp => sp.GetRequiredService<SinkOptionsValidator>());
        services.AddSingleton<IdempotencyGuard>();
        services.AddSingleton<SinkStatistics>();
        // Built by hand: the router takes the provider to find the stores' keyed sinks (Ingest.Storage), and
        // the metrics when the host registered them.
        services.AddSingleton(static sp => new SinkRouter(
            sp.GetRequiredService<IOptions<SinkOptions>>(), sp.GetRequiredService<SinkStatistics>(), sp, sp.GetService<Core.Diagnostics.IngestMetrics>()));
        services.AddSingleton<EventPersister>();

        services.AddStartupFact("sinks", static sp =>
        {
            var router = sp.GetRequiredService<SinkRouter>();
            return $"job:{router.SinkFor(Core.Events.EventType.Job).Kind},metric:{router.SinkFor(Core.Events.EventType.Metric).Kind},log:{router.SinkFor(Core.Events.EventType.Log).Kind}";
        });
        services.AddStartupFact("faults", static sp =>
        {
            var faults = sp.GetRequiredService<IOptions<FaultOptions>>().Value;
            return faults.DropOneIn == 0 && faults.DelayMilliseconds == 0 && faults.ResponseDelayMilliseconds == 0 && !faults.FailWrites
                ? "none"
                : $"drop-one-in:{faults.DropOneIn},delay-ms:{faults.DelayMilliseconds},response-delay-ms:{faults.ResponseDelayMilliseconds},fail-writes:{faults.FailWrites}";
        });
        // The window's capacity, and whether it was configured or sized to the memory the line's memory= also names.
        services.AddStartupFact("window", static sp =>
        {
            var capacity = sp.GetRequiredService<IdempotencyGuard>().Capacity.ToString(CultureInfo.InvariantCulture);
            return sp.GetRequiredService<IOptions<IdempotencyOptions>>().Value.Capacity is null
                ? $"{capacity}(sized-to-{sp.GetRequiredService<WindowBudget>().AvailableBytes / (1024 * 1024)}MB)"
                : $"{capacity}(configured)";
        });
        return builder;
    }
}
