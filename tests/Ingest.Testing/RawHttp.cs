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
        try
        {
            await socket.SendAsync(Encoding.ASCII.GetBytes(head));
            await socket.SendAsync(body);
            if (closeWriteAfter)
            {
                socket.Shutdown(SocketShutdown.Send);
            }
        }
        catch (SocketException ex) when (ex.SocketErrorCode is SocketError.Shutdown or SocketError.ConnectionReset or SocketError.ConnectionAborted)
        {
            // The server answered (a 400 or 413 before the whole request arrived) and closed while the rest was still
            // being sent: a broken pipe here is its answer, which is read below if it is still there to read.
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

    /// <summary>
    /// Sends <paramref name="request"/> as it is, optionally half-closes, then reads until the server closes the
    /// connection (or <paramref name="timeout"/> passes) and splits what arrived into responses. For requests whose
    /// framing is broken, where what matters is every answer the server gave and whether it hung up.
    /// </summary>
    public static async Task<RawExchange> ExchangeAsync(Uri server, byte[] request, bool halfClose, TimeSpan timeout)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(server.Host, server.Port);
        try
        {
            await socket.SendAsync(request);
            if (halfClose)
            {
                socket.Shutdown(SocketShutdown.Send);
            }
        }
        catch (SocketException)
        {
            // The server may hang up before it has read everything (a rejected head): what it answered is still read.
        }

        var received = new MemoryStream();
        var buffer = new byte[8192];
        var closed = false;
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            while (true)
            {
                var n = await socket.ReceiveAsync(buffer, SocketFlags.None, deadline.Token);
                if (n == 0)
                {
                    closed = true;
                    break;
                }

                received.Write(buffer, 0, n);
            }
        }
        catch (SocketException ex) when (ex.SocketErrorCode is SocketError.ConnectionReset or SocketError.ConnectionAborted)
        {
            closed = true;
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested)
        {
            // Still open: the caller decides whether that is right.
        }

        return new RawExchange(SplitResponses(Encoding.Latin1.GetString(received.ToArray())), closed);
    }

    /// <summary>Sends <paramref name="request"/> and closes with RST instead of FIN, as a crashing client does.</summary>
    public static async Task SendAndResetAsync(Uri server, byte[] request)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(server.Host, server.Port);
        await socket.SendAsync(request);
        socket.LingerState = new LingerOption(true, 0);
        socket.Close();
    }

    /// <summary>Responses framed by Content-Length (or nothing after the head, as Kestrel's own error answers); a
    /// truncated one is kept with what arrived.</summary>
    private static List<RawResponse> SplitResponses(string text)
    {
        var responses = new List<RawResponse>();
        while (text.Length >= 12 && text.StartsWith("HTTP/1.", StringComparison.Ordinal))
        {
            var split = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            var head = split < 0 ? text : text[..split];
            var status = int.Parse(head.AsSpan(9, 3), provider: System.Globalization.CultureInfo.InvariantCulture);
            var response = new RawResponse(status, head, "");
            var rest = split < 0 ? "" : text[(split + 4)..];
            var length = response.Header("Content-Length") is { } value ? int.Parse(value, System.Globalization.CultureInfo.InvariantCulture) : 0;
            length = Math.Min(length, rest.Length);
            responses.Add(response with { Body = rest[..length] });
            text = rest[length..];
        }

        return responses;
    }

    /// <summary>
    /// Sends <paramref name="request"/> exactly as given and reads the first final answer (1xx skipped). A request the
    /// server is still waiting to see the end of gets <paramref name="idle"/> to be answered; then the client closes its
    /// sending side, and the server has <paramref name="deadline"/> more to answer or close. Status 0: closed without
    /// an answer; <c>Hung</c>: neither an answer nor a close in that time.
    /// </summary>
    public static async Task<(int Status, bool Hung)> FirstAnswerAsync(Uri server, byte[] request, TimeSpan idle, TimeSpan deadline)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(server.Host, server.Port);
        try
        {
            await socket.SendAsync(request);
        }
        catch (SocketException)
        {
            // The server answered and closed before taking everything (a 413, a 400 on the request line): read that.
        }

        var received = new MemoryStream();
        var buffer = new byte[8192];
        var halfClosed = false;
        using var idleTimeout = new CancellationTokenSource(idle);
        using var deadlineTimeout = new CancellationTokenSource(idle + deadline);
        while (!IsComplete(received.ToArray()))
        {
            int n;
            try
            {
                n = await socket.ReceiveAsync(buffer, SocketFlags.None, halfClosed ? deadlineTimeout.Token : idleTimeout.Token);
            }
            catch (OperationCanceledException) when (!halfClosed)
            {
                // Still waiting for the rest of a request that will not come (a Content-Length above the body, a
                // missing last chunk): say so with the end of the stream, as a client that gives up does.
                halfClosed = true;
                socket.Shutdown(SocketShutdown.Send);
                continue;
            }
            catch (OperationCanceledException)
            {
                return (Status(received.ToArray()), true);
            }
            catch (SocketException ex) when (ex.SocketErrorCode is SocketError.ConnectionReset or SocketError.ConnectionAborted)
            {
                break;
            }

            if (n == 0)
            {
                break;
            }

            received.Write(buffer, 0, n);
        }

        return (Status(received.ToArray()), false);
    }

    // The status of the first final response, skipping interim ones; 0 when there is none.
    private static int Status(byte[] received)
    {
        var text = Encoding.Latin1.GetString(received);
        var start = SkipInterim(text);
        return start >= 0 && text.Length >= start + 12 && int.TryParse(text.AsSpan(start + 9, 3), System.Globalization.CultureInfo.InvariantCulture, out var status)
            ? status
            : 0;
    }

    // Where the first final response starts: after every "HTTP/1.1 1xx ...\r\n\r\n"; -1 while an interim one is incomplete.
    private static int SkipInterim(string text)
    {
        var start = 0;
        while (text.Length >= start + 12 && text[start + 9] == '1')
        {
            var end = text.IndexOf("\r\n\r\n", start, StringComparison.Ordinal);
            if (end < 0)
            {
                return -1;
            }

            start = end + 4;
        }

        return start;
    }

    private static bool IsComplete(byte[] received)
    {
        var text = Encoding.Latin1.GetString(received);
        var start = SkipInterim(text);
        var split = start < 0 ? -1 : text.IndexOf("\r\n\r\n", start, StringComparison.Ordinal);
        if (split < 0)
        {
            return false;
        }

        var bodyLength = text.Length - (split + 4);
        foreach (var line in text[start..split].Split("\r\n"))
        {
            if (line.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase))
            {
                return bodyLength >= int.Parse(line.AsSpan(15).Trim(), provider: System.Globalization.CultureInfo.InvariantCulture);
            }

            if (line.StartsWith("Transfer-Encoding:", StringComparison.OrdinalIgnoreCase) && line.Contains("chunked", StringComparison.OrdinalIgnoreCase))
            {
                return text.EndsWith("0\r\n\r\n", StringComparison.Ordinal);
            }
        }

        // No framing header: the body ends with the connection (or there is none, as on a 1xx-free 204/304).
        return false;
    }
}
