using System.IO.Pipelines;
using System.Reflection;
using Ingest.Transports.Internal;
using Ingest.Transports.Internal.Adapters;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RedHat.AspNetCore.Server.Kestrel.Transport.Linux;

namespace Ingest.Transports.RedHat;

/// <summary>
/// <see cref="TransportKind.RedHatLinux"/>: the package's <see cref="LinuxTransportFactory"/> with the settings of
/// <c>Kestrel:RedHatLinux</c>, behind a factory that tells Kestrel which endpoints it binds.
/// </summary>
internal sealed class RedHatLinuxAdapter : TransportAdapter
{
    /// <summary>The package's own version (its informational version, e.g. <c>3.1.0</c>), for the start-up line.</summary>
    public static string PackageVersion { get; } =
        typeof(LinuxTransportFactory).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "unknown";

    public override TransportKind Kind => TransportKind.RedHatLinux;

    public override string? WhyUnavailable(IServiceProvider services)
    {
        if (!OperatingSystem.IsLinux())
        {
            return "the Red Hat transport runs on Linux only.";
        }

        var options = Settings(services);
        if (!options.RefuseLossyBuild)
        {
            return null;
        }

        var probeOptions = PackageOptions(options);
        probeOptions.ThreadCount = 1;
        var factory = new LinuxTransportFactory(Options.Create(probeOptions), services.GetRequiredService<ILoggerFactory>());
        return LossyDisposeProbe.LosesQueuedResponses(factory)
            ? $"this build of RedHat.AspNetCore.Server.Kestrel.Transport.Linux ({PackageVersion}) drops the response bytes still queued when Kestrel disposes a connection: its DisposeAsync cancels the pending send, and on .NET 10 Kestrel disposes right after a response it must close (Connection: close), so those clients get an empty reply. Build the package without that abort (docs/transports.md), or set {RedHatLinuxOptions.SectionName}:RefuseLossyBuild=false to run it anyway."
            : null;
    }

    public override IConnectionListenerFactory CreateFactory(IServiceProvider services) =>
        new RedHatListenerFactory(new LinuxTransportFactory(
            Options.Create(PackageOptions(Settings(services))), services.GetRequiredService<ILoggerFactory>()));

    public override string Describe(IServiceProvider services)
    {
        var options = Settings(services);
        return $"RedHatLinux ({TransportBackends.DescribeThreads(options.ThreadCount, options.ApplicationSchedulingMode)}, AIO receive {TransportBackends.OnOff(options.AioReceive)}, AIO send {TransportBackends.OnOff(options.AioSend)}, deferred send {TransportBackends.OnOff(options.DeferSend)}; package {PackageVersion})";
    }

    /// <summary>
    /// The package's options from ours. Its setters couple (AioSend=true turns DeferSend on, DeferSend=false turns AioSend
    /// off), so DeferSend is set before AioSend; the validator has already refused AioSend without DeferSend.
    /// </summary>
    private static LinuxTransportOptions PackageOptions(RedHatLinuxOptions options) => new()
    {
        ThreadCount = options.ThreadCount,
        DeferSend = options.DeferSend,
        AioSend = options.AioSend,
        AioReceive = options.AioReceive,
        ApplicationSchedulingMode = options.ApplicationSchedulingMode == ApplicationSchedulingMode.Inline ? PipeScheduler.Inline : PipeScheduler.ThreadPool,
    };

    private static RedHatLinuxOptions Settings(IServiceProvider services) => services.GetRequiredService<IOptions<RedHatLinuxOptions>>().Value;
}
