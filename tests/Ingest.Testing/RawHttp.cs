using System.Buffers;
using System.Net.Sockets;
using System.Text;
using Ingest.Wire.Http1;

namespace Ingest.Testing;

/// <summary>Sends hand-written HTTP/1.1 over a socket, for requests HttpClient refuses to send (lying Content-Length,
/// truncated bodies), and reads the answers with the services' own HTTP/1.1 response parser, strict as it is: a test
/// whose server answers what the parser refuses fails, with the parser's reason.</summary>
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
        var closed = false;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        while (Read(received, closed: false, IsHead(head)).Complete == 0)
        {
            int n;
            try
            {
                n = await socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionReset)
            {
                closed = true;
                break;
            }

            if (n == 0)
            {
                closed = true;
                break;
            }

            received.Write(buffer, 0, n);
        }

        return Read(received, closed, IsHead(head)).Responses is [var first, ..] ? (first.Status, first.Head, first.Body) : (0, "", "");
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

        return new RawExchange(Read(received, closed, IsHead(request)).Responses, closed);
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
        while (Read(received, closed: false, IsHead(request)).Complete == 0)
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
                return (Status(received, request), true);
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

        return (Status(received, request), false);
    }

    // The status of the first final response, whole or not; 0 when none began.
    private static int Status(MemoryStream received, byte[] request) =>
        Read(received, closed: false, IsHead(request)).Responses is [var first, ..] ? first.Status : 0;

    private static bool IsHead(ReadOnlySpan<byte> request) => request.StartsWith("HEAD "u8);

    private static bool IsHead(string request) => request.StartsWith("HEAD ", StringComparison.Ordinal);

    /// <summary>
    /// The final responses in what the server sent, framed by the one HTTP/1.1 response parser the load generator and
    /// the fast path use (interim 1xx ones skipped, chunked bodies decoded): each whole one, then one cut short (its head
    /// whole) with what of its body arrived. <paramref name="closed"/>: the server closed the connection after these
    /// bytes, which ends a body delimited by the close. An answer the parser refuses fails the test that got it.
    /// </summary>
    private static (List<RawResponse> Responses, int Complete) Read(MemoryStream received, bool closed, bool headRequest)
    {
        var parser = new HttpResponseParser(headRequest);
        var body = new ArrayBufferWriter<byte>();
        var responses = new List<RawResponse>();
        var complete = 0;
        string? head = null;
        var rest = received.GetBuffer().AsSpan(0, (int)received.Length);
        while (true)
        {
            var status = parser.Parse(rest, out var consumed, body);
            if (status == ParseStatus.Head)
            {
                head = Encoding.Latin1.GetString(rest.Slice(consumed - parser.HeadLength, parser.HeadLength - 4));
            }

            rest = rest[consumed..];
            if (status == ParseStatus.Error)
            {
                throw new InvalidDataException($"The server's answer is not HTTP/1.1 the parser can frame: {parser.Error}. Received: " +
                    Encoding.Latin1.GetString(received.GetBuffer(), 0, (int)received.Length));
            }

            var whole = status == ParseStatus.Complete || (status == ParseStatus.NeedMore && closed && parser.CompleteAtEndOfStream());
            if (head is not null && (whole || status == ParseStatus.NeedMore))
            {
                responses.Add(new RawResponse(parser.Head.StatusCode, head, Encoding.UTF8.GetString(body.WrittenSpan)));
                complete += whole ? 1 : 0;
                head = null;
                body.ResetWrittenCount();
            }

            if (status == ParseStatus.NeedMore)
            {
                return (responses, complete);
            }
        }
    }
}
