using System.Net;
using Ingest.Transports.Internal.Adapters;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Tests;

/// <summary>
/// Kestrel:Transport=RedHatLinux beyond the shared suite: a build without the package says how to add it, and the
/// start-up probe for the build that loses responses agrees with what clients really get.
/// </summary>
public sealed class RedHatLinuxTests
{
    private static readonly string[] s_loopback = ["http://127.0.0.1:0"];

    [RedHatTransportFact(withPackage: false)]
    public async Task WithoutThePackageStartUpStopsSayingHowToAddIt()
    {
        await using var app = LoopbackServer.Build(TransportVariant.RedHatLinux, s_loopback);
        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => app.StartAsync());
        Assert.Equal($"Kestrel:Transport=RedHatLinux cannot run here: {TransportAdapters.RedHatMissing} Set Kestrel:Transport to another transport (Sockets always works), or set Kestrel:TransportFallback=true to fall back to Sockets.", error.Message);
        Assert.Contains("-p:RedHatTransportPackages=", error.Message, StringComparison.Ordinal);
    }

    [RedHatTransportFact(withPackage: false)]
    public async Task WithoutThePackageFallbackServesWithSockets()
    {
        var settings = new Dictionary<string, string?> { ["Kestrel:TransportFallback"] = "true" };
        await using var server = await LoopbackServer.StartAsync(TransportVariant.RedHatLinux, s_loopback, settings);
        Assert.Equal(TransportKind.Sockets, server.Transport.Effective);
        Assert.Equal(TransportAdapters.RedHatMissing, server.Transport.FallbackReason);
    }

    /// <summary>
    /// With the refusal on (the default), a build either refuses to start naming the loss, and then really loses
    /// responses when run anyway, or starts and then loses none: the probe is checked against clients either way.
    /// </summary>
    [RedHatTransportFact(withPackage: true)]
    public async Task TheStartUpProbeAgreesWithWhatClientsGet()
    {
        var refusing = new Dictionary<string, string?> { ["Kestrel:RedHatLinux:RefuseLossyBuild"] = "true" };
        LoopbackServer server;
        bool refused;
        try
        {
            server = await LoopbackServer.StartAsync(TransportVariant.RedHatLinux, s_loopback, refusing);
            refused = false;
        }
        catch (OptionsValidationException error)
        {
            Assert.Contains("drops the response bytes still queued", error.Message, StringComparison.Ordinal);
            Assert.Contains("Kestrel:RedHatLinux:RefuseLossyBuild=false", error.Message, StringComparison.Ordinal);
            server = await LoopbackServer.StartAsync(TransportVariant.RedHatLinux, s_loopback);
            refused = true;
        }

        await using (server)
        {
            Assert.Contains("package 3.1.0", server.Transport.Description, StringComparison.Ordinal);
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            var lost = await ClosingRequests.CountLostAsync(server.EndPoint(IPAddress.Loopback), timeout.Token);
            if (refused)
            {
                Assert.True(lost > 0, $"Start-up refused the build as lossy, but all {ClosingRequests.Count} Connection: close responses arrived.");
            }
            else
            {
                Assert.True(lost == 0, $"Start-up accepted the build, but {lost} of {ClosingRequests.Count} Connection: close requests got an empty reply.");
            }
        }
    }
}
