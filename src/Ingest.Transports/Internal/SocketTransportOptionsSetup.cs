using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>Copies <c>Kestrel:Sockets</c> onto Kestrel's own <see cref="SocketTransportOptions"/>.</summary>
internal sealed class SocketTransportOptionsSetup(IOptions<SocketsOptions> sockets) : IConfigureOptions<SocketTransportOptions>
{
    public void Configure(SocketTransportOptions options)
    {
        var source = sockets.Value;
        options.IOQueueCount = source.IOQueueCount;
        options.UnsafePreferInlineScheduling = source.UnsafePreferInlineScheduling;
        options.WaitForDataBeforeAllocatingBuffer = source.WaitForDataBeforeAllocatingBuffer;
        options.NoDelay = source.NoDelay;
        options.Backlog = source.Backlog;
        options.MaxReadBufferSize = source.MaxReadBufferSize;
        options.MaxWriteBufferSize = source.MaxWriteBufferSize;
    }
}
