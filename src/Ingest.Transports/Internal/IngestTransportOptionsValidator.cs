using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>
/// The start-up check of the transport choice: the value is known, the transport can run here (or fallback is
/// allowed), and Kestrel will really use Ingest's listener factory.
/// </summary>
internal sealed class IngestTransportOptionsValidator(IServiceProvider services, TransportProbe probe) : IValidateOptions<IngestTransportOptions>
{
    public ValidateOptionsResult Validate(string? name, IngestTransportOptions options)
    {
        var failures = new List<string>();
        OptionsChecks.Defined(failures, "Kestrel:Transport", options.Transport);
        if (failures.Count != 0)
        {
            return ValidateOptionsResult.Fail(failures);
        }

        if (options.Transport != TransportKind.Sockets && !options.TransportFallback)
        {
            string? reason;
            try
            {
                reason = probe.WhyUnavailable(options.Transport, services);
            }
            catch (OptionsValidationException)
            {
                // The transport's own section is invalid; its validator reports that, once.
                return ValidateOptionsResult.Success;
            }

            if (reason is not null)
            {
                return ValidateOptionsResult.Fail(TransportSelector.UnavailableMessage(options.Transport, reason));
            }
        }

        // Kestrel uses the last registered factory that can bind an endpoint. If UseKestrel ran after
        // UseIngestTransport, its Sockets factory came back and would silently win.
        var factories = services.GetServices<IConnectionListenerFactory>().ToArray();
        if (factories.Length == 0 || factories[^1] is not IngestConnectionListenerFactory)
        {
            return ValidateOptionsResult.Fail(
                "Kestrel:Transport is ignored: another IConnectionListenerFactory was registered after UseIngestTransport (UseKestrel or UseSockets called later). Call UseIngestTransport after UseKestrel.");
        }

        return ValidateOptionsResult.Success;
    }
}
