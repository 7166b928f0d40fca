using System.Net;
using System.Net.Sockets;

namespace Ingest.Lab.Processes;

/// <summary>Loopback ports nobody listens on, for the services a scenario starts.</summary>
internal static class FreePorts
{
    public static int Next()
    {
        // The kernel picks a free ephemeral port; released at once, it stays free long enough for the child
        // to bind it in practice, and a clash surfaces as a clear start-up failure, not a silent error.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
