using System.Globalization;

namespace Ingest.Storage.Internal;

/// <summary>
/// The NDJSON files of one event type: <c>{type}-{n:D6}.ndjson</c> in one directory, appended to the newest,
/// the next one started when a write would take it past the rotation size. Used by one writer at a time.
/// </summary>
internal sealed class NdjsonFile(string directory, string type, long rotateBytes) : IDisposable
{
    private FileStream? _current;
    private int _index;

    /// <summary>Bytes written since the last fsync.</summary>
    public bool Dirty { get; private set; }

    public string? CurrentPath => _current?.Name;

    /// <summary>Opens the newest existing file (or the first), continuing its numbering.</summary>
    public void Open()
    {
        _index = 1;
        foreach (var path in System.IO.Directory.EnumerateFiles(directory, type + "-*.ndjson"))
        {
            var name = Path.GetFileNameWithoutExtension(path);
            if (int.TryParse(name.AsSpan(type.Length + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > _index)
            {
                _index = n;
            }
        }

        _current = OpenAppend(_index);
    }

    /// <summary>Writes whole lines to the kernel (no user-space buffering), rotating first when they would not fit.</summary>
    public void Append(ReadOnlySpan<byte> lines)
    {
        var current = _current ?? throw new InvalidOperationException("Open the file first.");
        if (current.Length > 0 && current.Length + lines.Length > rotateBytes)
        {
            FlushToDisk();
            current.Dispose();
            current = _current = OpenAppend(++_index);
        }

        current.Write(lines);
        Dirty = true;
    }

    public void FlushToDisk()
    {
        if (_current is { } current && Dirty)
        {
            current.Flush(flushToDisk: true);
            Dirty = false;
        }
    }

    public void Dispose()
    {
        FlushToDisk();
        _current?.Dispose();
        _current = null;
    }

    // bufferSize 0: every Write goes straight to the kernel, so a batch is in the page cache when Append returns.
    private FileStream OpenAppend(int index) =>
        new(Path.Combine(directory, $"{type}-{index.ToString("D6", CultureInfo.InvariantCulture)}.ndjson"), FileMode.Append, FileAccess.Write, FileShare.Read, bufferSize: 0);
}
