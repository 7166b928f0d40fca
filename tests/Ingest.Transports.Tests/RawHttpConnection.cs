using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Ingest.Transports.Tests;

/// <summary>
/// HTTP/1.1 over a raw socket: the client the tests need to control exactly what goes on the wire (one
/// keep-alive connection, pipelining, half-close, abortive close).
/// </summary>
public sealed class RawHttpConnection : IAsyncDisposable
{
    private readonly byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;

    private RawHttpConnection(Socket socket) => Socket = socket;

    public Socket Socket { get; }

    public static async Task<RawHttpConnection> ConnectAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var protocol = endPoint is UnixDomainSocketEndPoint ? ProtocolType.Unspecified : ProtocolType.Tcp;
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, protocol);
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken);
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        return new RawHttpConnection(socket);
    }

    public static string Get(string path, string? extraHeaders = null) => $"GET {path} HTTP/1.1\r\nHost: test\r\n{extraHeaders}\r\n";

    public Task SendAsync(string text, CancellationToken cancellationToken) => SendAsync(Encoding.ASCII.GetBytes(text), cancellationToken);

    public async Task SendAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        while (!bytes.IsEmpty)
        {
            var sent = await Socket.SendAsync(bytes, SocketFlags.None, cancellationToken);
            bytes = bytes[sent..];
        }
    }

    /// <summary>Reads one response; null when the server closed the connection before sending one.</summary>
    public async Task<RawHttpResponse?> ReadResponseAsync(CancellationToken cancellationToken)
    {
        int headEnd;
        while ((headEnd = IndexOfHeadEnd()) < 0)
        {
            if (!await FillAsync(cancellationToken))
            {
                return null;
            }
        }

        var head = Encoding.ASCII.GetString(_buffer, _start, headEnd - _start);
        _start = headEnd + 4;
        var lines = head.Split("\r\n");
        var status = int.Parse(lines[0].Split(' ')[1], CultureInfo.InvariantCulture);
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var line in lines.Skip(1))
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            headers[line[..colon].Trim()] = line[(colon + 1)..].Trim();
        }

        byte[] body;
        if (headers.TryGetValue("Content-Length", out var length))
        {
            body = await ReadExactlyAsync(int.Parse(length, CultureInfo.InvariantCulture), cancellationToken);
        }
        else if (headers.TryGetValue("Transfer-Encoding", out var encoding) && encoding.Contains("chunked", StringComparison.OrdinalIgnoreCase))
        {
            body = await ReadChunkedAsync(cancellationToken);
        }
        else
        {
            body = await ReadToEndAsync(cancellationToken);
        }

        return new RawHttpResponse(status, headers, body);
    }

    /// <summary>Everything until the server closes its side.</summary>
    public async Task<byte[]> ReadToEndAsync(CancellationToken cancellationToken)
    {
        using var collected = new MemoryStream();
        while (true)
        {
            collected.Write(_buffer, _start, _end - _start);
            _start = _end = 0;
            if (!await FillAsync(cancellationToken))
            {
                return collected.ToArray();
            }
        }
    }

    /// <summary>Closes with RST instead of FIN, as a crashing client or a killed browser tab does.</summary>
    public void Reset()
    {
        Socket.LingerState = new LingerOption(true, 0);
        Socket.Close();
    }

    public ValueTask DisposeAsync()
    {
        Socket.Dispose();
        return ValueTask.CompletedTask;
    }

    private async Task<byte[]> ReadExactlyAsync(int count, CancellationToken cancellationToken)
    {
        var body = new byte[count];
        var copied = 0;
        while (copied < count)
        {
            if (_start == _end && !await FillAsync(cancellationToken))
            {
                throw new IOException($"The server closed the connection after {copied} of {count} body bytes.");
            }

            var take = Math.Min(count - copied, _end - _start);
            Buffer.BlockCopy(_buffer, _start, body, copied, take);
            _start += take;
            copied += take;
        }

        return body;
    }

    private async Task<byte[]> ReadChunkedAsync(CancellationToken cancellationToken)
    {
        using var body = new MemoryStream();
        while (true)
        {
            var sizeLine = await ReadLineAsync(cancellationToken);
            var size = int.Parse(sizeLine.Split(';')[0], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            if (size == 0)
            {
                // Trailers, if any, end with an empty line.
                while ((await ReadLineAsync(cancellationToken)).Length != 0)
                {
                }

                return body.ToArray();
            }

            body.Write(await ReadExactlyAsync(size, cancellationToken));
            _ = await ReadLineAsync(cancellationToken);
        }
    }

    private async Task<string> ReadLineAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var index = _buffer.AsSpan(_start, _end - _start).IndexOf("\r\n"u8);
            if (index >= 0)
            {
                var line = Encoding.ASCII.GetString(_buffer, _start, index);
                _start += index + 2;
                return line;
            }

            if (!await FillAsync(cancellationToken))
            {
                throw new IOException("The server closed the connection in the middle of a chunked body.");
            }
        }
    }

    private int IndexOfHeadEnd()
    {
        var index = _buffer.AsSpan(_start, _end - _start).IndexOf("\r\n\r\n"u8);
        return index < 0 ? -1 : _start + index;
    }

    private async Task<bool> FillAsync(CancellationToken cancellationToken)
    {
        if (_start > 0)
        {
            Buffer.BlockCopy(_buffer, _start, _buffer, 0, _end - _start);
            _end -= _start;
            _start = 0;
        }

        if (_end == _buffer.Length)
        {
            throw new InvalidOperationException("A response head larger than the test client's buffer.");
        }

        var read = await Socket.ReceiveAsync(_buffer.AsMemory(_end), SocketFlags.None, cancellationToken);
        _end += read;
        return read > 0;
    }
}
