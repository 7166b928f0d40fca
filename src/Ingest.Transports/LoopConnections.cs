using System.Net;
using Ingest.Transports.Internal;
using Ingest.Transports.Internal.Core;
using Ingest.Wire.Linux;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Transports;

/// <summary>
/// Client connections owned by the transport's own loops, for a service that forwards what it receives: a
/// connection opened with <see cref="ConnectAsync"/> is driven by one loop's thread, so a request that arrived on
/// that loop, forwarded over it and answered, never leaves the thread (with inline application scheduling).
/// Available with the LinuxEpoll and IoUring transports; <see cref="Count"/> is 0 with the others. Resolve it from
/// DI after <see cref="IngestTransportWebHostBuilderExtensions.UseIngestTransport"/>.
/// </summary>
public sealed class LoopConnections
{
    private readonly Lazy<TransportSettings?> _settings;
    private TransportLoop[]? _loops;

    internal LoopConnections(IServiceProvider services) =>
        _settings = new(() => services.GetRequiredService<TransportSelector>().Info.Effective is var kind and (TransportKind.LinuxEpoll or TransportKind.IoUring)
            ? TransportBackends.Settings(kind, services)
            : null);

    /// <summary>How many loops can own connections: the transport's thread count, or 0 when it has no such loops.</summary>
    public int Count => _settings.Value?.ThreadCount ?? 0;

    /// <summary>Whether the loops run the application's code on their own thread (inline scheduling), which is
    /// when a forward on a loop-owned connection never changes threads.</summary>
    public bool RunsApplicationInline => _settings.Value?.ApplicationSchedulingMode == ApplicationSchedulingMode.Inline;

    /// <summary>The index of the loop running the caller, or -1 when the caller is on another thread.</summary>
    public int Current
    {
        get
        {
            var loops = Volatile.Read(ref _loops);
            var current = TransportLoop.Current;
            if (loops is null || current is null)
            {
                return -1;
            }

            return current.Index < loops.Length && ReferenceEquals(loops[current.Index], current) ? current.Index : -1;
        }
    }

    /// <summary>
    /// Connects to <paramref name="endPoint"/> (IP or Unix socket) and hands the connection to loop
    /// <paramref name="loop"/>. The connect itself waits on a thread-pool thread, never on a loop. The stream is
    /// asynchronous only; disposing it sends what is queued, then closes the connection.
    /// </summary>
    public async ValueTask<Stream> ConnectAsync(int loop, EndPoint endPoint, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(endPoint);
        var loops = Volatile.Read(ref _loops)
            ?? throw new InvalidOperationException("The transport's loops are not running yet: they start when Kestrel binds its first endpoint.");
        ArgumentOutOfRangeException.ThrowIfNegative(loop);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(loop, loops.Length);

        var owner = loops[loop];
        var noDelay = owner.Settings.NoDelay;
        var fd = await Task.Run(() => OutboundSockets.Connect(endPoint, noDelay, cancellationToken), cancellationToken);
        var adopted = new TaskCompletionSource<TransportConnection>(TaskCreationOptions.RunContinuationsAsynchronously);
        owner.Schedule(static state =>
        {
            var (loop, fd, endPoint, adopted) = ((TransportLoop, int, EndPoint, TaskCompletionSource<TransportConnection>))state!;
            try
            {
                adopted.SetResult(loop.AdoptConnected(fd, endPoint));
            }
            catch (Exception error)
            {
                _ = LibC.close(fd);
                adopted.SetException(error);
            }
        }, (owner, fd, endPoint, adopted));

        return new ConnectionStream(await adopted.Task);
    }

    /// <summary>Called once by the native transport when its loops start.</summary>
    internal void Attach(TransportLoop[] loops)
    {
        foreach (var loop in loops)
        {
            if (!loop.CanAdopt)
            {
                return;
            }
        }

        Volatile.Write(ref _loops, loops);
    }
}
