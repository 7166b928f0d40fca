using Ingest.Transports.Internal;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Configuration;

namespace Ingest.Transports;

/// <summary>The one call the hosting layer makes to choose Kestrel's transport from configuration.</summary>
public static class IngestTransportWebHostBuilderExtensions
{
    /// <summary>
    /// Selects Kestrel's transport from <c>Kestrel:Transport</c> (<c>Sockets</c>, <c>Libuv</c>, <c>LinuxEpoll</c>,
    /// <c>IoUring</c>, <c>RedHatLinux</c>) and binds its section (<c>Kestrel:Sockets</c>, <c>Kestrel:Libuv</c>,
    /// <c>Kestrel:LinuxEpoll</c>, <c>Kestrel:IoUring</c>, <c>Kestrel:RedHatLinux</c>). Exactly one <c>IConnectionListenerFactory</c> is
    /// registered; settings and the transport's availability are validated when the host starts, which fails with
    /// one message naming the key to change unless <c>Kestrel:TransportFallback</c> allows falling back to
    /// Sockets. Call it after <c>UseKestrel</c> (WebApplication.CreateBuilder has already called it). Resolve
    /// <see cref="TransportInfo"/> for the effective transport.
    /// </summary>
    public static IWebHostBuilder UseIngestTransport(this IWebHostBuilder builder, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(configuration);
        return builder.ConfigureServices(services => TransportServices.Add(services, configuration));
    }
}
