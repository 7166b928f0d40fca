using System.Buffers;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// What a backend provides per connection: asynchronous receive and send over one non-blocking socket, driven
/// by that backend's event loop. Operations are issued one at a time per direction (the connection's pumps
/// await each), complete on the transport thread, and <see cref="Close"/> runs on the transport thread once
/// neither direction has an operation in flight. Shutdown and abort are plain <c>shutdown(2)</c> calls made by
/// <see cref="TransportConnection"/>, the same for every backend.
/// </summary>
internal abstract class LoopSocket(int fd)
{
    /// <summary>The socket's file descriptor; valid until <see cref="Close"/>.</summary>
    public int Fd { get; } = fd;

    /// <summary>Completes when the socket is readable (data, FIN or an error); never rents a buffer.</summary>
    public abstract ValueTask WaitForDataAsync();

    /// <summary>Receives into <paramref name="buffer"/>; 0 means the peer sent FIN.</summary>
    public abstract ValueTask<int> ReceiveAsync(Memory<byte> buffer);

    /// <summary>Completes once every byte of <paramref name="buffer"/> was handed to the kernel.</summary>
    public abstract ValueTask SendAsync(ReadOnlySequence<byte> buffer);

    /// <summary>Releases the descriptor and the backend's per-socket state.</summary>
    public abstract void Close();
}
