using System.Net;
using System.Net.Sockets;

namespace Ingest.Testing;

/// <summary>Ports on 127.0.0.1 for a server that must be given its port up front (or come back on the same one).</summary>
public static class LoopbackPorts
{
    /// <summary>A port free a moment ago: the kernel's pick for a listener that is closed again at once.</summary>
    public static int Free()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
