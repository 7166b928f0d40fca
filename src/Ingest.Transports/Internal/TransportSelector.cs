using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>Decides once which transport runs: the requested one, or Sockets when it cannot run and fallback is on.</summary>
internal sealed class TransportSelector(IServiceProvider services, IOptions<IngestTransportOptions> options, TransportProbe probe, ILoggerFactory loggerFactory)
{
    private readonly Lazy<TransportInfo> _info = new(() => Select(services, options.Value, probe, loggerFactory.CreateLogger("Ingest.Transports")));

    public TransportInfo Info => _info.Value;

    /// <summary>The start-up failure message for a transport that cannot run: why, and which key to change.</summary>
    public static string UnavailableMessage(TransportKind kind, string reason) =>
        $"Kestrel:Transport={kind} cannot run here: {reason} Set Kestrel:Transport to another transport (Sockets always works), or set Kestrel:TransportFallback=true to fall back to Sockets.";

    private static TransportInfo Select(IServiceProvider services, IngestTransportOptions options, TransportProbe probe, ILogger logger)
    {
        var requested = options.Transport;
        TransportInfo info;
        if (requested == TransportKind.Sockets)
        {
            info = new TransportInfo(requested, TransportKind.Sockets, null, DescribeSockets(services));
        }
        else
        {
            var reason = probe.WhyUnavailable(requested, services);
            if (reason is null)
            {
                info = new TransportInfo(requested, requested, null, TransportBackends.Describe(requested, services));
            }
            else if (options.TransportFallback)
            {
                TransportLog.FallingBack(logger, requested, reason);
                info = new TransportInfo(requested, TransportKind.Sockets, reason, DescribeSockets(services) + $", fallback from {requested}");
            }
            else
            {
                throw new InvalidOperationException(UnavailableMessage(requested, reason));
            }
        }

        TransportLog.TransportSelected(logger, info.Description);
        return info;
    }

    private static string DescribeSockets(IServiceProvider services)
    {
        var sockets = services.GetRequiredService<IOptions<SocketTransportOptions>>().Value;
        return $"Sockets (IOQueueCount={sockets.IOQueueCount}, inline scheduling {(sockets.UnsafePreferInlineScheduling ? "on" : "off")})";
    }
}
