using System.Text;

namespace Ingest.Core.Tests.Direct;

/// <summary>
/// A connection's stream with a scripted back-end behind it: every request written to it is kept, and answered with
/// the next of <see cref="Answers"/>, handed out <see cref="ReadSize"/> bytes per read; when no answer is left, reads
/// see the end of the stream (the back-end closed the connection), or wait if <see cref="Silent"/>.
/// </summary>
internal sealed class CannedStream(params string[] answers) : Stream
{
    private readonly Queue<byte[]> _answers = new(answers.Select(Encoding.ASCII.GetBytes));
    private byte[] _pending = [];
    private int _offset;

    public Queue<byte[]> Answers => _answers;

    public List<string> Requests { get; } = [];

    public int ReadSize { get; init; } = int.MaxValue;

    public bool Disposed { get; private set; }

    /// <summary>With no answer left, a read waits (a back-end that does not answer) until it is cancelled.</summary>
    public bool Silent { get; init; }

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    /// <summary>Every request is answered with the last answer again, and not kept: the stream then allocates nothing
    /// per exchange, so a test can count what the client allocates.</summary>
    public bool RepeatsLastAnswer { get; init; }

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(Disposed, this);
        if (RepeatsLastAnswer)
        {
            _pending = _answers.TryDequeue(out var next) ? next : _pending;
            _offset = 0;
            return ValueTask.CompletedTask;
        }

        Requests.Add(Encoding.ASCII.GetString(buffer.Span));
        if (_offset == _pending.Length && _answers.TryDequeue(out var answer))
        {
            _pending = answer;
            _offset = 0;
        }

        return ValueTask.CompletedTask;
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(Disposed, this);
        if (Silent && _offset == _pending.Length)
        {
            return new ValueTask<int>(Task.Delay(Timeout.Infinite, cancellationToken).ContinueWith(_ => 0, cancellationToken, TaskContinuationOptions.None, TaskScheduler.Default));
        }

        var count = Math.Min(Math.Min(buffer.Length, ReadSize), _pending.Length - _offset);
        _pending.AsSpan(_offset, count).CopyTo(buffer.Span);
        _offset += count;
        return ValueTask.FromResult(count);
    }

    protected override void Dispose(bool disposing)
    {
        Disposed = true;
        base.Dispose(disposing);
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
