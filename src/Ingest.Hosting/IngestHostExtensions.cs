using System.Diagnostics.CodeAnalysis;
using System.Threading.RateLimiting;
using Ingest.Core;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Core.Security;
using Ingest.Core.Serialization;
using Ingest.Hosting.Internal;
using Ingest.Hosting.Minimal;
using Ingest.Hosting.Mvc;
using Ingest.Hosting.Raw;
using Ingest.Transports;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting;

/// <summary>The host wiring both services share: options, serializer, Kestrel transport and limits, API style, start-up line.</summary>
public static class IngestHostExtensions
{
    /// <summary>
    /// Everything a service of <paramref name="role"/> needs except its own concern (forwarding or sinks):
    /// the <c>Ingest</c> options validated at start-up, the serializer they name, Kestrel's body limit, the
    /// role's request handler, the API style's services, and the start-up report.
    /// </summary>
    public static WebApplicationBuilder AddIngestHost(this WebApplicationBuilder builder, ServiceRole role)
    {
        var services = builder.Services;
        // Kestrel's transport is configuration (Kestrel:Transport), checked at start like every other option.
        builder.WebHost.UseIngestTransport(builder.Configuration);
        services.AddSingleton(new HostRole(role));
        services.AddOptions<IngestOptions>().BindConfiguration(IngestOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<IngestOptions>, IngestOptionsValidator>();
        services.TryAddSingleton(TimeProvider.System);
        services.AddOptions<LimitsOptions>().BindConfiguration(LimitsOptions.SectionName).ValidateOnStart();
        services.AddOptions<ManagementOptions>().BindConfiguration(ManagementOptions.SectionName).ValidateOnStart();
        services.AddOptions<SecurityOptions>().BindConfiguration(SecurityOptions.SectionName).ValidateOnStart();
        services.AddSingleton<HostingOptionsValidator>();
        services.AddSingleton<IValidateOptions<LimitsOptions>>(static sp => sp.GetRequiredService<HostingOptionsValidator>());
        services.AddSingleton<IValidateOptions<ManagementOptions>>(static sp => sp.GetRequiredService<HostingOptionsValidator>());
        services.AddSingleton<IValidateOptions<SecurityOptions>>(static sp => sp.GetRequiredService<HostingOptionsValidator>());
        services.AddSingleton(static sp => IngestSerializers.Create(
            sp.GetRequiredService<IOptions<IngestOptions>>().Value.Serializer,
            sp.GetRequiredService<IOptions<LimitsOptions>>().Value.MaxJsonDepth));
        services.AddSingleton<ResponseWriter>();
        // Exact syntax at the door, ahead of every endpoint (RequestSyntax); the raw style matches paths exactly, routing
        // ignoring case.
        services.AddSingleton<IStartupFilter>(static sp => new RequestSyntax(
            sp.GetRequiredService<HostRole>().Role,
            sp.GetRequiredService<ResponseWriter>(),
            Ingest(sp).ApiStyle == ApiStyle.Raw ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase));
        services.AddSingleton<Pages.StatusPageSource>();
        services.AddOptions<KestrelServerOptions>()
            .Configure<IOptions<IngestOptions>, IOptions<LimitsOptions>>(static (kestrel, ingest, limits) => ApplyLimits(kestrel, ingest.Value, limits.Value));
        services.AddOptions<HostOptions>()
            .Configure<IOptions<LimitsOptions>>(static (host, limits) => host.ShutdownTimeout = TimeSpan.FromSeconds(limits.Value.ShutdownTimeoutSeconds));

        // Read now because it decides which services exist; the validator re-checks it at start.
        var perConnection = builder.Configuration.GetSection(LimitsOptions.SectionName).GetValue(nameof(LimitsOptions.RequestsPerSecondPerConnection), 0);
        if (perConnection > 0)
        {
            AddPerConnectionRateLimit(services, perConnection);
        }

        if (role == ServiceRole.FrontEnd)
        {
            // The front door's rule for a client's half-close, on every transport and endpoint: a complete request is
            // answered (HalfCloseTolerance). The back-end keeps Kestrel's: its one caller, the front-end, closes a forward's
            // connection only when it stopped waiting, and the back-end then stops too.
            services.AddOptions<KestrelServerOptions>().Configure(static kestrel => kestrel.ConfigureEndpointDefaults(static listen => listen.Use(HalfCloseTolerance.Use)));
            services.AddSingleton(static sp => new IngestRequestReader(
                sp.GetRequiredService<IIngestSerializer>(),
                sp.GetRequiredService<TimeProvider>(),
                sp.GetRequiredService<IOptions<IngestOptions>>().Value.MaxBatchEvents));
            services.AddSingleton<FrontEndHandler>();
        }
        else
        {
            services.AddSingleton<ForwardBodyReader>();
            services.AddSingleton<BackEndHandler>();
        }

        // The API style decides which services exist, so it is read now; the validator re-checks it at start.
        var style = builder.Configuration.GetSection(IngestOptions.SectionName).GetValue(nameof(IngestOptions.ApiStyle), ApiStyle.Minimal);
        // ReflectionSupport is tested here, not only in the validator: in a trimmed or Native AOT build the compiler then
        // drops MVC from the program (the validator still refuses the setting with its message).
        if (style == ApiStyle.Mvc && ReflectionSupport.IsEnabled)
        {
            AddMvc(services, role);
        }

        services.AddStartupFact("role", _ => role.ToString());
        services.AddStartupFact("api", static sp => Ingest(sp).ApiStyle.ToString());
        services.AddStartupFact("transport", static sp => sp.GetRequiredService<TransportInfo>().Name);
        services.AddStartupFact("serializer", static sp => Ingest(sp).Serializer.ToString());
        services.AddStartupFact("gc", static _ => RuntimeDescription.GcMode());
        services.AddStartupFact("concurrent", static _ => RuntimeDescription.Concurrent());
        services.AddStartupFact("datas", static _ => RuntimeDescription.Datas());
        services.AddStartupFact("heaps", static _ => RuntimeDescription.Heaps());
        services.AddStartupFact("gen0max", static _ => RuntimeDescription.Gen0MaxBudget());
        services.AddStartupFact("region", static _ => RuntimeDescription.RegionSize());
        services.AddStartupFact("cpus", static _ => RuntimeDescription.Cpus());
        services.AddStartupFact("memory", static _ => RuntimeDescription.Memory());
        services.AddStartupFact("aot", static _ => RuntimeDescription.Aot());
        services.AddStartupFact("runtime", static _ => RuntimeDescription.Runtime().Replace(' ', '-'));
        services.AddStartupFact("pid", static _ => Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture));
        services.AddHostedService<StartupReport>();
        services.AddOptions<MemoryOptions>().BindConfiguration(MemoryOptions.SectionName)
            .Validate(static memory => memory.ReleaseStartupPagesAfterSeconds is >= 0 and <= 86_400, "Memory:ReleaseStartupPagesAfterSeconds is outside 0..86400 (0 = never)")
            .ValidateOnStart();
        services.AddHostedService<StartupPages>();
        return builder;
    }

    /// <summary>Maps the role's contract in the configured API style, behind the configured guards and limits.</summary>
    public static WebApplication MapIngestApi(this WebApplication app)
    {
        var role = app.Services.GetRequiredService<HostRole>().Role;
        var guards = ActivatorUtilities.CreateInstance<RequestGuards>(app.Services, role);
        if (guards.Enabled)
        {
            app.Use(next => context => guards.InvokeAsync(context, next));
        }

        if (app.Services.GetRequiredService<IOptions<LimitsOptions>>().Value.RequestsPerSecondPerConnection > 0)
        {
            app.UseRateLimiter();
        }

        switch (Ingest(app.Services).ApiStyle)
        {
            case ApiStyle.Mvc when ReflectionSupport.IsEnabled:
                MapMvc(app, role);
                break;
            case ApiStyle.Raw:
                var raw = ActivatorUtilities.CreateInstance<RawApi>(app.Services, role);
                app.Run(raw.InvokeAsync);
                break;
            default:
                if (role == ServiceRole.FrontEnd)
                {
                    MinimalApi.MapFrontEnd(app);
                }
                else
                {
                    MinimalApi.MapBackEnd(app);
                }

                break;
        }

        return app;
    }

    /// <summary>Adds a <c>name=value</c> pair to the start-up line.</summary>
    public static IServiceCollection AddStartupFact(this IServiceCollection services, string name, Func<IServiceProvider, string> value) =>
        services.AddSingleton(new StartupFact(name, value));

    private static void ApplyLimits(KestrelServerOptions kestrel, IngestOptions ingest, LimitsOptions limits)
    {
        var k = kestrel.Limits;
        k.MaxRequestBodySize = ingest.MaxBodyBytes;
        k.MaxRequestHeadersTotalSize = limits.MaxRequestHeadersTotalSize;
        k.MaxRequestHeaderCount = limits.MaxRequestHeaderCount;
        k.MinRequestBodyDataRate = limits.MinRequestBodyBytesPerSecond == 0
            ? null
            : new MinDataRate(limits.MinRequestBodyBytesPerSecond, TimeSpan.FromSeconds(limits.MinRequestBodyGraceSeconds));
        k.RequestHeadersTimeout = TimeSpan.FromSeconds(limits.RequestHeadersTimeoutSeconds);
        k.KeepAliveTimeout = TimeSpan.FromSeconds(limits.KeepAliveTimeoutSeconds);
        k.MaxConcurrentConnections = limits.MaxConcurrentConnections == 0 ? null : limits.MaxConcurrentConnections;
    }

    /// <summary>A token bucket per connection: a client flooding one connection gets 429, others are not affected.</summary>
    private static void AddPerConnectionRateLimit(IServiceCollection services, int perSecond) =>
        services.AddRateLimiter(options =>
        {
            options.GlobalLimiter = PartitionedRateLimiter.Create<HttpContext, string>(context =>
                RateLimitPartition.GetTokenBucketLimiter(context.Connection.Id, _ => new TokenBucketRateLimiterOptions
                {
                    TokenLimit = perSecond,
                    TokensPerPeriod = perSecond,
                    ReplenishmentPeriod = TimeSpan.FromSeconds(1),
                    QueueLimit = 0,
                    AutoReplenishment = true,
                }));
            options.OnRejected = (rejected, _) =>
            {
                var writer = rejected.HttpContext.RequestServices.GetRequiredService<ResponseWriter>();
                return new ValueTask(writer.WriteProblemAsync(rejected.HttpContext.Response, IngestProblem.WithRetryAfter(
                    ProblemKind.TooManyRequests, $"This connection may send {perSecond} requests a second.", retryAfterSeconds: 1)));
            };
        });

    private static IngestOptions Ingest(IServiceProvider services) => services.GetRequiredService<IOptions<IngestOptions>>().Value;

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "Called only where ReflectionSupport.IsEnabled; IngestOptionsValidator refuses ApiStyle=Mvc elsewhere (Native AOT, trimmed).")]
    private static void AddMvc(IServiceCollection services, ServiceRole role) => MvcApi.AddServices(services, role);

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "As AddMvc.")]
    private static void MapMvc(WebApplication app, ServiceRole role) => MvcApi.Map(app, role);

    /// <summary>The role of this process, registered once so style-specific code can ask for it.</summary>
    internal sealed record HostRole(ServiceRole Role);
}
