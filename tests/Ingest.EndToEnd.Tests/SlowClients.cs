using System.Net.Sockets;
using System.Text;

namespace Ingest.EndToEnd.Tests;

/// <summary>Clients that hold a server's resources as long as they can: slowloris and its friends.</summary>
internal static class SlowClients
{
    /// <summary>Sends a request's headers one byte a second (slowloris).</summary>
    public static async Task TrickleHeadersAsync(Uri server, CancellationToken stop)
    {
        using var socket = await ConnectAsync(server);
        var head = Encoding.ASCII.GetBytes("POST /ingest/event HTTP/1.1\r\nHost: slow\r\nContent-Type: application/json\r\nX-Slow: ");
        await Trickle(socket, head, TimeSpan.FromSeconds(1), stop);
    }

    /// <summary>Sends complete headers, then the body one byte a second.</summary>
    public static async Task TrickleBodyAsync(Uri server, CancellationToken stop)
    {
        using var socket = await ConnectAsync(server);
        await Send(socket, Encoding.ASCII.GetBytes("POST /ingest/event HTTP/1.1\r\nHost: slow\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"));
        await Trickle(socket, new byte[100_000], TimeSpan.FromSeconds(1), stop);
    }

    /// <summary>Pipelines requests for responses it never reads, so the server's send buffers fill.</summary>
    public static async Task NeverReadAsync(Uri server, CancellationToken stop)
    {
        using var socket = await ConnectAsync(server);
        var request = Encoding.ASCII.GetBytes("GET /json HTTP/1.1\r\nHost: slow\r\n\r\n");
        try
        {
            for (var i = 0; i < 2_000 && !stop.IsCancellationRequested; i++)
            {
                await socket.SendAsync(request, SocketFlags.None, stop);
            }

            await Task.Delay(Timeout.Infinite, stop);
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException)
        {
        }
    }

    private static async Task<Socket> ConnectAsync(Uri server)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(server.Host, server.Port);
        return socket;
    }

    private static async Task Trickle(Socket socket, byte[] bytes, TimeSpan every, CancellationToken stop)
    {
        try
        {
            foreach (var b in bytes)
            {
                await socket.SendAsync(new[] { b }, SocketFlags.None, stop);
                await Task.Delay(every, stop);
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException)
        {
            // Cut off by the server (its header timeout or body rate) or stopped by the test: either is the point.
        }
    }

    private static async Task Send(Socket socket, byte[] bytes)
    {
        try
        {
            await socket.SendAsync(bytes);
        }
        catch (SocketException)
        {
        }
    }
}
