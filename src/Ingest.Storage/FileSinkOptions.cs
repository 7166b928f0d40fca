namespace Ingest.Storage;

/// <summary>The file sink: NDJSON, a file per event type, rotated by size. Bound from <c>Sinks:File</c>; checked at
/// start-up only when a type uses it.</summary>
public sealed class FileSinkOptions : StoreBatchOptions
{
    public const string SectionName = "Sinks:File";

    /// <summary>Where the files go (<c>job-000001.ndjson</c>, …); created when missing. Defaults to none: required
    /// when a type uses the file sink.</summary>
    public string? Directory { get; set; }

    /// <summary>When written events are fsynced. Defaults to <see cref="FileFlushPolicy.PerBatch"/>.</summary>
    public FileFlushPolicy Flush { get; set; } = FileFlushPolicy.PerBatch;

    /// <summary>The fsync period of <see cref="FileFlushPolicy.Interval"/>. Defaults to 1,000 ms.</summary>
    public int FlushIntervalMilliseconds { get; set; } = 1_000;

    /// <summary>A file that would grow past this many bytes is closed and the next one started. Defaults to 64 MiB.</summary>
    public long RotateBytes { get; set; } = 64L * 1024 * 1024;
}
