using System.Buffers.Text;
using System.Globalization;
using System.Text;
using Ingest.Core.Buffers;

namespace Ingest.Storage.Resp;

/// <summary>
/// Appends RESP2 commands (arrays of bulk strings) to a pooled buffer, so a pipeline of many commands goes out
/// in one send. Arguments are written straight as UTF-8: no string per argument.
/// </summary>
internal sealed class RespCommandWriter : IDisposable
{
    /// <summary>Room for the longest number or date-time argument formatted in place.</summary>
    private const int ScalarRoom = 64;

    private readonly PooledBufferWriter _buffer = new(64 * 1024);

    public int Commands { get; private set; }

    public ReadOnlyMemory<byte> Written => _buffer.WrittenMemory;

    public void Reset()
    {
        _buffer.Reset();
        Commands = 0;
    }

    /// <summary>Starts a command of <paramref name="arguments"/> arguments, the command name included.</summary>
    public void Begin(int arguments)
    {
        Prefix((byte)'*', arguments);
        Commands++;
    }

    public void Argument(string value)
    {
        var length = Encoding.UTF8.GetByteCount(value);
        Prefix((byte)'$', length);
        var span = _buffer.GetSpan(length + 2);
        Encoding.UTF8.GetBytes(value, span);
        span[length] = (byte)'\r';
        span[length + 1] = (byte)'\n';
        _buffer.Advance(length + 2);
    }

    public void Argument(ReadOnlySpan<byte> utf8)
    {
        Prefix((byte)'$', utf8.Length);
        var span = _buffer.GetSpan(utf8.Length + 2);
        utf8.CopyTo(span);
        span[utf8.Length] = (byte)'\r';
        span[utf8.Length + 1] = (byte)'\n';
        _buffer.Advance(utf8.Length + 2);
    }

    public void Argument(long value)
    {
        Span<byte> text = stackalloc byte[ScalarRoom];
        Utf8Formatter.TryFormat(value, text, out var written);
        Argument(text[..written]);
    }

    /// <summary>A number as its shortest round-trip text.</summary>
    public void Argument(double value)
    {
        Span<byte> text = stackalloc byte[ScalarRoom];
        value.TryFormat(text, out var written, "R", CultureInfo.InvariantCulture);
        Argument(text[..written]);
    }

    /// <summary>A date-time in RFC 3339 round-trip form (<c>2026-11-22T10:00:00.1234567Z</c>).</summary>
    public void Argument(DateTime value)
    {
        Span<byte> text = stackalloc byte[ScalarRoom];
        value.TryFormat(text, out var written, "O", CultureInfo.InvariantCulture);
        Argument(text[..written]);
    }

    public void Dispose() => _buffer.Dispose();

    private void Prefix(byte kind, int count)
    {
        var span = _buffer.GetSpan(ScalarRoom);
        span[0] = kind;
        Utf8Formatter.TryFormat(count, span[1..], out var written);
        span[written + 1] = (byte)'\r';
        span[written + 2] = (byte)'\n';
        _buffer.Advance(written + 3);
    }
}
