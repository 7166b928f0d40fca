using System.Net.Sockets;
using System.Text;

namespace Ingest.Testing;

/// <summary>Sends hand-written HTTP/1.1 over a socket, for requests HttpClient refuses to send (lying Content-Length,
/// truncated bodies), and reads the status line and body of the answer.</summary>
public static class RawHttp
{
    /// <summary>Status 0 means the server closed the connection without answering.</summary>
    public static async Task<(int Status, string Head, string Body)> SendAsync(Uri server, string head, byte[] body, bool closeWriteAfter)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(server.Host, server.Port);
        await socket.SendAsync(Encoding.ASCII.GetBytes(head));
        await socket.SendAsync(body);
        if (closeWriteAfter)
        {
            socket.Shutdown(SocketShutdown.Send);
        }

        var received = new MemoryStream();
        var buffer = new byte[8192];
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        while (true)
        {
            int n;
            try
            {
                n = await socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionReset)
            {
                break;
            }

            if (n == 0)
            {
                break;
            }

            received.Write(buffer, 0, n);
            if (IsComplete(received.ToArray()))
            {
                break;
            }
        }

        var text = Encoding.UTF8.GetString(received.ToArray());
        if (text.Length < 12)
        {
            return (0, "", "");
        }

        var split = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        var headPart = split < 0 ? text : text[..split];
        var status = int.Parse(headPart.AsSpan(9, 3), provider: System.Globalization.CultureInfo.InvariantCulture);
        return (status, headPart, split < 0 ? "" : text[(split + 4)..]);
    }

    private static bool IsComplete(byte[] received)
    {
        var text = Encoding.UTF8.GetString(received);
        var split = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        if (split < 0)
        {
            return false;
        }

        foreach (var line in text[..split].Split("\r\n"))
        {
            if (line.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase))
            {
                return received.Length - Encoding.UTF8.GetByteCount(text[..(split + 4)]) >= int.Parse(line.AsSpan(15).Trim(), provider: System.Globalization.CultureInfo.InvariantCulture);
            }
        }

        return false;
    }
}
