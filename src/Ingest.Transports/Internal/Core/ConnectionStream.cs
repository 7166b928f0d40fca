using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// A client connection owned by a transport loop, as the <see cref="Stream"/> an HTTP client reads and writes (the
/// front-end's own, for Forwarding:ClientStrategy=LoopDirect). Reads complete where the connection's input pipe is
/// flushed — on the loop thread when the application scheduler is inline — so the caller continues there without
/// a hop; writes flush into the output pipe, which the loop sends (at the end of its iteration with DeferSend).
/// A read that has to wait completes through the stream itself (a stream has one read in flight), so waiting for
/// an answer allocates nothing per request.
/// </summary>
internal sealed class ConnectionStream(TransportConnection connection) : Stream
{
    private readonly PipeReader _input = connection.Transport.Input;
    private readonly PipeWriter _output = connection.Transport.Output;
    private int _disposed;

    // The read in flight when it had to wait: its completion (reused, as the loop's own operations are), where its
    // bytes go and what it waits on.
    private readonly LoopOperation _read = new();
    private ValueTaskAwaiter<ReadResult> _waiting;
    private Memory<byte> _destination;
    private CancellationToken _readCancellation;
    private Action? _readCompleted;

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_input.TryRead(out var result))
        {
            return new ValueTask<int>(Consume(result, buffer.Span));
        }

        return ReadSlowAsync(buffer, cancellationToken);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) =>
        throw new NotSupportedException("A loop-owned connection is asynchronous only: blocking would stall its loop.");

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var flush = await _output.WriteAsync(buffer, cancellationToken);
        if (flush.IsCompleted)
        {
            throw new IOException("The connection was closed while sending.");
        }
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Write(byte[] buffer, int offset, int count) =>
        throw new NotSupportedException("A loop-owned connection is asynchronous only: blocking would stall its loop.");

    // Every write already flushed into the output pipe.
    public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        // Completing both pipes sends what is queued, then FIN; the connection closes its socket on the loop when
        // both pumps have ended. Nothing here waits: the client's DisposeAsync (Stream's own) runs this synchronously.
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            _ = connection.DisposeAsync().AsTask();
        }

        base.Dispose(disposing);
    }

    private ValueTask<int> ReadSlowAsync(Memory<byte> buffer, CancellationToken cancellationToken)
    {
        _destination = buffer;
        _readCancellation = cancellationToken;
#pragma warning disable CA2012 // its awaiter is kept and read once, in CompleteRead
        _waiting = _input.ReadAsync(cancellationToken).GetAwaiter();
#pragma warning restore CA2012
        if (_waiting.IsCompleted)
        {
            CompleteRead();
        }
        else
        {
            _waiting.UnsafeOnCompleted(_readCompleted ??= CompleteRead);
        }

        return _read.AsValueTaskOfInt();
    }

    private void CompleteRead()
    {
        var destination = _destination;
        var waiting = _waiting;
        _destination = default;
        _waiting = default;
        int count;
        try
        {
            var result = waiting.GetResult();
            if (result.IsCanceled)
            {
                throw new OperationCanceledException(_readCancellation);
            }

            count = Consume(result, destination.Span);
        }
        catch (Exception error)
        {
            _read.Fail(error);
            return;
        }

        _read.Complete(count);
    }

    /// <summary>Copies what fits and consumes it; a zero-byte read (an HTTP client's "tell me when data comes")
    /// consumes nothing. 0 with a non-empty buffer means the peer closed.</summary>
    private int Consume(ReadResult result, Span<byte> destination)
    {
        var data = result.Buffer;
        if (destination.IsEmpty || data.IsEmpty)
        {
            _input.AdvanceTo(data.Start);
            return 0;
        }

        var count = (int)Math.Min(data.Length, destination.Length);
        data.Slice(0, count).CopyTo(destination);
        _input.AdvanceTo(data.GetPosition(count));
        return count;
    }
}
