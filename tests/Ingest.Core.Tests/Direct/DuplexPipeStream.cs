using System.IO.Pipelines;
using System.Text;

namespace Ingest.Core.Tests.Direct;

/// <summary>
/// A connection's stream with the test as the back-end: what the client writes is read with
/// <see cref="ReadRequestsAsync"/>, and what the test answers with <see cref="AnswerAsync"/> is what the client reads,
/// whenever the test sends it; <see cref="End"/> closes the back-end's side.
/// </summary>
internal sealed class DuplexPipeStream : Stream
{
    private readonly Pipe _requests = new();
    private readonly Pipe _answers = new();
    private readonly Stream _read;
    private readonly Stream _write;
    private readonly StringBuilder _received = new();

    public DuplexPipeStream()
    {
        _read = _answers.Reader.AsStream();
        _write = _requests.Writer.AsStream();
    }

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) => _read.ReadAsync(buffer, cancellationToken);

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) => _write.WriteAsync(buffer, cancellationToken);

    /// <summary>Sends <paramref name="text"/> to the client as the back-end's bytes.</summary>
    public async Task AnswerAsync(string text) => await _answers.Writer.WriteAsync(Encoding.ASCII.GetBytes(text));

    /// <summary>The back-end closes its side: the client reads the end of the stream.</summary>
    public void End() => _answers.Writer.Complete();

    /// <summary>Every request written so far, once at least <paramref name="count"/> have begun.</summary>
    public async Task<string[]> ReadRequestsAsync(int count)
    {
        while (Split().Length < count)
        {
            var result = await _requests.Reader.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(10));
            foreach (var segment in result.Buffer)
            {
                _received.Append(Encoding.ASCII.GetString(segment.Span));
            }

            _requests.Reader.AdvanceTo(result.Buffer.End);
        }

        return Split();
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    private string[] Split() => _received.ToString().Split("POST ", StringSplitOptions.RemoveEmptyEntries);
}
