namespace Ingest.Storage;

/// <summary>When the file sink asks the kernel to put written events on the disk (fsync). Every batch is written
/// to the file (the kernel's page cache) before it is acknowledged, whatever the policy: a crash of the back-end
/// loses nothing acknowledged; only a crash of the machine can.</summary>
public enum FileFlushPolicy
{
    /// <summary>Never fsync; the kernel writes back when it likes (typically within 30 s).</summary>
    Never,

    /// <summary>fsync every batch before acknowledging it: nothing acknowledged is lost even if the machine fails.</summary>
    PerBatch,

    /// <summary>fsync every <see cref="FileSinkOptions.FlushIntervalMilliseconds"/>: a machine failure loses at most that much.</summary>
    Interval,
}
