using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Channels;
using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// One bound endpoint. Every transport thread accepts on its own descriptor and publishes the connections here;
/// Kestrel's accept loop takes them from a channel.
/// </summary>
internal sealed class NativeConnectionListener(EndPoint endPoint, TransportLoop[] loops) : IConnectionListener
{
    private readonly Channel<TransportConnection> _accepted = Channel.CreateUnbounded<TransportConnection>(
        new UnboundedChannelOptions { SingleReader = true, SingleWriter = false });

    private int _unbound;

    public EndPoint EndPoint { get; } = endPoint;

    /// <summary>Hands an accepted connection to Kestrel, or closes it when the listener was unbound meanwhile.</summary>
    public void Publish(TransportConnection connection)
    {
        if (!_accepted.Writer.TryWrite(connection))
        {
            connection.Abort(new ConnectionAbortedException("The listener was unbound."));
            _ = connection.DisposeAsync().AsTask();
        }
    }

    public async ValueTask<ConnectionContext?> AcceptAsync(CancellationToken cancellationToken = default)
    {
        while (await _accepted.Reader.WaitToReadAsync(cancellationToken))
        {
            if (_accepted.Reader.TryRead(out var connection))
            {
                return connection;
            }
        }

        return null;
    }

    public async ValueTask UnbindAsync(CancellationToken cancellationToken = default)
    {
        if (Interlocked.Exchange(ref _unbound, 1) != 0)
        {
            return;
        }

        foreach (var loop in loops)
        {
            await loop.InvokeAsync(() => loop.StopListening(this));
        }

        _accepted.Writer.TryComplete();
        while (_accepted.Reader.TryRead(out var connection))
        {
            connection.Abort(new ConnectionAbortedException("The listener was unbound."));
            await connection.DisposeAsync();
        }

        if (EndPoint is UnixDomainSocketEndPoint unix)
        {
            RemoveSocketFile(unix);
        }
    }

    public ValueTask DisposeAsync() => UnbindAsync();

    private static unsafe void RemoveSocketFile(UnixDomainSocketEndPoint endPoint)
    {
        var path = endPoint.ToString();
        if (path.Length == 0 || path[0] == '\0')
        {
            return;
        }

        var bytes = Encoding.UTF8.GetBytes(path + "\0");
        fixed (byte* pointer = bytes)
        {
            _ = LibC.unlink(pointer);
        }
    }
}
