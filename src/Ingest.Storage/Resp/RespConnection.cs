using System.Net;
using System.Net.Sockets;

namespace Ingest.Storage.Resp;

/// <summary>
/// One connection to a Redis server speaking RESP2 over a <see cref="Socket"/>: write commands with
/// <see cref="Commands"/>, send them all with <see cref="FlushAsync"/>, then read one reply per command with
/// <see cref="ReadReplyAsync"/>. Not thread-safe: one user at a time (a sink writer owns one). After any
/// failure the connection is broken (<see cref="IsConnected"/> false) and must be disposed.
/// </summary>
internal sealed class RespConnection : IDisposable
{
    private const int InitialReceiveBuffer = 64 * 1024;

    /// <summary>A reply larger than this is refused rather than buffered: none of ours comes near it.</summary>
    private const int MaxReplyBytes = 64 * 1024 * 1024;

    private readonly Socket _socket;
    private byte[] _receive = new byte[InitialReceiveBuffer];
    private int _start;
    private int _end;
    private bool _broken;

    private RespConnection(Socket socket)
    {
        _socket = socket;
    }

    public RespCommandWriter Commands { get; } = new();

    public bool IsConnected => !_broken && _socket.Connected;

    public static async Task<RespConnection> ConnectAsync(EndPoint endpoint, CancellationToken cancellationToken)
    {
        // A host name (Unspecified family) gets a dual-mode socket, so it may resolve to IPv4 or IPv6.
        var socket = endpoint.AddressFamily == AddressFamily.Unspecified
            ? new Socket(SocketType.Stream, ProtocolType.Tcp)
            : new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        // Pipelines are written whole and flushed once: no point in Nagle holding back the tail.
        socket.NoDelay = true;
        try
        {
            await socket.ConnectAsync(endpoint, cancellationToken);
            return new RespConnection(socket);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Sends every command written since the last flush in one go.</summary>
    public async Task FlushAsync(CancellationToken cancellationToken)
    {
        try
        {
            var data = Commands.Written;
            while (!data.IsEmpty)
            {
                var sent = await _socket.SendAsync(data, SocketFlags.None, cancellationToken);
                data = data[sent..];
            }

            Commands.Reset();
        }
        catch
        {
            _broken = true;
            throw;
        }
    }

    /// <summary>Reads the next reply; error replies are returned, not thrown (a pipeline reads them all).</summary>
    public async ValueTask<RespReply> ReadReplyAsync(CancellationToken cancellationToken)
    {
        try
        {
            while (true)
            {
                if (_end > _start && RespParser.TryParse(_receive.AsSpan(_start, _end - _start), out var reply, out var consumed))
                {
                    _start += consumed;
                    if (_start == _end)
                    {
                        _start = _end = 0;
                    }

                    return reply;
                }

                await ReceiveAsync(cancellationToken);
            }
        }
        catch
        {
            _broken = true;
            throw;
        }
    }

    /// <summary>One command, flushed, and its reply: for set-up and tests, not the hot path.</summary>
    public async Task<RespReply> ExecuteAsync(CancellationToken cancellationToken, params string[] arguments)
    {
        Commands.Begin(arguments.Length);
        foreach (var argument in arguments)
        {
            Commands.Argument(argument);
        }

        await FlushAsync(cancellationToken);
        return await ReadReplyAsync(cancellationToken);
    }

    public void Dispose()
    {
        _broken = true;
        _socket.Dispose();
        Commands.Dispose();
    }

    private async Task ReceiveAsync(CancellationToken cancellationToken)
    {
        if (_start > 0)
        {
            // Keep the partial reply at the front, so the free space is all at the end.
            Buffer.BlockCopy(_receive, _start, _receive, 0, _end - _start);
            _end -= _start;
            _start = 0;
        }

        if (_end == _receive.Length)
        {
            if (_receive.Length >= MaxReplyBytes)
            {
                throw new RespProtocolException($"A reply exceeds {MaxReplyBytes} bytes.");
            }

            Array.Resize(ref _receive, _receive.Length * 2);
        }

        var received = await _socket.ReceiveAsync(_receive.AsMemory(_end), SocketFlags.None, cancellationToken);
        if (received == 0)
        {
            throw new SocketException((int)SocketError.ConnectionReset);
        }

        _end += received;
    }
}
