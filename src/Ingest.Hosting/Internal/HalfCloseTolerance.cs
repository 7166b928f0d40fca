using System.IO.Pipelines;
using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace Ingest.Hosting.Internal;

/// <summary>
/// The one rule for a client that half-closes (docs/contract.md#half-close): a complete request followed by the client's
/// FIN (<c>shutdown(SHUT_WR)</c>, as <c>nc -N</c> does) is served and answered like any other, on every transport, and
/// the connection is closed after the answer. Kestrel alone drops such a request, and not always the same way: every
/// transport reports the peer's FIN by firing <see cref="BaseConnectionContext.ConnectionClosed"/> (on a reset too),
/// which Kestrel's HTTP/1.1 connection takes as an abort of the request in flight, and a read that sees the input's end
/// makes the request body "unexpectedly ended" even when all of it is in hand. Whether the FIN arrived before the body
/// was read or after the forward went out decided whether the event was dropped or persisted unanswered — a duplicate
/// when the client retries. This connection middleware hands Kestrel the connection without the closed signal and with
/// an input that reports its end only once Kestrel has looked at every byte before it: a complete request is read,
/// forwarded and answered; a request cut short still ends as one (a 400, or a close where nothing can be answered), with
/// nothing persisted; a reset still fails the next write.
/// </summary>
internal sealed class HalfCloseTolerance : ConnectionContext
{
    private readonly ConnectionContext _inner;
    private IDuplexPipe _transport;

    private HalfCloseTolerance(ConnectionContext inner)
    {
        _inner = inner;
        _transport = new HalfClosedPipe(inner.Transport);
    }

    public static ConnectionDelegate Use(ConnectionDelegate next) => connection => next(new HalfCloseTolerance(connection));

    public override string ConnectionId { get => _inner.ConnectionId; set => _inner.ConnectionId = value; }

    public override IFeatureCollection Features => _inner.Features;

    public override IDictionary<object, object?> Items { get => _inner.Items; set => _inner.Items = value; }

    public override IDuplexPipe Transport { get => _transport; set => _transport = value; }

    public override EndPoint? LocalEndPoint { get => _inner.LocalEndPoint; set => _inner.LocalEndPoint = value; }

    public override EndPoint? RemoteEndPoint { get => _inner.RemoteEndPoint; set => _inner.RemoteEndPoint = value; }

    /// <summary>Never fires: Kestrel learns of the peer's end from the input (<see cref="HalfClosedInput"/>) and the output.</summary>
    public override CancellationToken ConnectionClosed { get => CancellationToken.None; set { } }

    public override void Abort(ConnectionAbortedException abortReason) => _inner.Abort(abortReason);

    public override void Abort() => _inner.Abort();

    public override async ValueTask DisposeAsync()
    {
        await _inner.DisposeAsync();
        await base.DisposeAsync();
    }

    private sealed class HalfClosedPipe(IDuplexPipe inner) : IDuplexPipe
    {
        public PipeReader Input { get; } = new HalfClosedInput(inner.Input);

        public PipeWriter Output => inner.Output;
    }
}

/// <summary>
/// The connection's input, whose end (the client's FIN) is reported only after the reader examined every byte before it:
/// bytes that arrived with the FIN are first read as if more could follow, so a request they complete is parsed and its
/// body read in full; a reader that looked at all of them and asked for more then sees the end.
/// </summary>
internal sealed class HalfClosedInput(PipeReader inner) : PipeReader
{
    private SequencePosition _end;
    private bool _examinedToTheEnd;

    public override async ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default) => Hold(await inner.ReadAsync(cancellationToken));

    public override bool TryRead(out ReadResult result)
    {
        if (!inner.TryRead(out result))
        {
            return false;
        }

        result = Hold(result);
        return true;
    }

    public override void AdvanceTo(SequencePosition consumed) => AdvanceTo(consumed, consumed);

    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined)
    {
        _examinedToTheEnd = examined.Equals(_end);
        inner.AdvanceTo(consumed, examined);
    }

    public override void CancelPendingRead() => inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => inner.Complete(exception);

    public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);

    private ReadResult Hold(ReadResult result)
    {
        _end = result.Buffer.End;
        return result.IsCompleted && !result.Buffer.IsEmpty && !_examinedToTheEnd
            ? new ReadResult(result.Buffer, result.IsCanceled, isCompleted: false)
            : result;
    }
}
