using System.Buffers;
using System.Net;
using System.Net.Sockets;
using Ingest.Wire.Linux;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// Kestrel's entry into a custom transport: starts <see cref="TransportSettings.ThreadCount"/> loops of one
/// backend on the first bind and gives every loop its own listening descriptor per endpoint.
/// </summary>
internal sealed class NativeTransportFactory(
    TransportBackend backend,
    TransportSettings settings,
    IMemoryPoolFactory<byte>? memoryPoolFactory,
    ILogger logger,
    LoopConnections? connections = null) : IConnectionListenerFactory, IConnectionListenerFactorySelector, IAsyncDisposable
{
    private readonly Lock _gate = new();
    private readonly List<MemoryPool<byte>> _pools = [];
    private TransportLoop[]? _loops;
    private bool _disposed;

    public TransportSettings Settings => settings;

    public bool CanBind(EndPoint endpoint) => endpoint is IPEndPoint or UnixDomainSocketEndPoint;

    public async ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
    {
        if (!CanBind(endpoint))
        {
            throw new NotSupportedException($"The {settings.Kind} transport binds IP and Unix socket endpoints, not {endpoint.GetType().Name} '{endpoint}'.");
        }

        var loops = EnsureStarted();
        var (fds, bound) = ListenSockets.Bind(endpoint, loops.Length, settings.Backlog);
        var listener = new NativeConnectionListener(bound, loops);
        var handedOver = 0;
        try
        {
            for (; handedOver < loops.Length; handedOver++)
            {
                var loop = loops[handedOver];
                var fd = fds[handedOver];
                await loop.InvokeAsync(() => loop.StartListening(fd, listener));
            }
        }
        catch
        {
            for (var i = handedOver; i < fds.Length; i++)
            {
                _ = LibC.close(fds[i]);
            }

            await listener.UnbindAsync(CancellationToken.None);
            throw;
        }

        TransportLog.Listening(logger, settings.Kind, bound, loops.Length);
        return listener;
    }

    public async ValueTask DisposeAsync()
    {
        TransportLoop[]? loops;
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            loops = _loops;
        }

        if (loops is not null)
        {
            await Task.WhenAll(loops.Select(loop => loop.StopAsync()));
        }

        foreach (var pool in _pools)
        {
            pool.Dispose();
        }
    }

    private TransportLoop[] EnsureStarted()
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_loops is not null)
            {
                return _loops;
            }

            var loops = new TransportLoop[settings.ThreadCount];
            for (var i = 0; i < loops.Length; i++)
            {
                // One pool per loop: blocks are rented and returned on the same thread most of the time.
                var pool = memoryPoolFactory?.Create(new MemoryPoolOptions { Owner = "Ingest.Transports" }) ?? MemoryPool<byte>.Shared;
                _pools.Add(pool);
                loops[i] = backend.CreateLoop(i, settings, pool, logger);
            }

            foreach (var loop in loops)
            {
                loop.Start();
            }

            connections?.Attach(loops);
            _loops = loops;
            return loops;
        }
    }
}
