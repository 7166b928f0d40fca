using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Ingest.Wire.Http1;

namespace Ingest.Transports.Tests;

/// <summary>
/// HTTP/1.1 over a raw socket: the client the tests need to control exactly what goes on the wire (one
/// keep-alive connection, pipelining, half-close, abortive close).
/// </summary>
public sealed class RawHttpConnection : IAsyncDisposable
{
    private readonly byte[] _buffer = new byte[HttpResponseParser.MaxHeadBytes];
    private readonly HttpResponseParser _parser = new();
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

    /// <summary>Reads one response, framed by the services' own HTTP/1.1 response parser; null when the server closed the
    /// connection before sending one.</summary>
    public async Task<RawHttpResponse?> ReadResponseAsync(CancellationToken cancellationToken)
    {
        var body = new ArrayBufferWriter<byte>();
        var started = false;
        while (true)
        {
            var status = _parser.Parse(_buffer.AsSpan(_start, _end - _start), out var consumed, body);
            _start += consumed;
            started |= status == ParseStatus.Head;
            switch (status)
            {
                case ParseStatus.Complete:
                    return new RawHttpResponse(_parser.Head.StatusCode, body.WrittenSpan.ToArray());
                case ParseStatus.Error:
                    throw new InvalidDataException($"The server's answer is not HTTP/1.1 the parser can frame: {_parser.Error}.");
                case ParseStatus.NeedMore:
                    if (!await FillAsync(cancellationToken))
                    {
                        return _parser.CompleteAtEndOfStream() ? new RawHttpResponse(_parser.Head.StatusCode, body.WrittenSpan.ToArray())
                            : started ? throw new IOException($"The server closed the connection after {body.WrittenCount} bytes of a response's body.")
                            : null;
                    }

                    break;
            }
        }
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
