namespace Ingest.Hosting;

/// <summary>Memory a service gives back once it serves. Bound from the <c>Memory</c> section of both services.</summary>
public sealed class MemoryOptions
{
    public const string SectionName = "Memory";

    /// <summary>
    /// Seconds after start-up at which the service hands the pages of its own program file back to the kernel
    /// (<c>MADV_PAGEOUT</c> on the executable's read-only mappings), so that of the program only what serving touches is
    /// resident again: a Native AOT service reads its whole compressed type data and runs code and data only start-up
    /// needs, and the kernel keeps every page of them mapped otherwise. Pages still in use come back on their next touch,
    /// from the page cache or the disk, once. Nothing written is dropped: the kernel reclaims only clean pages of the
    /// file. Under the JIT the executable is the small dotnet host, so this gives back little. 0 = never (the default).
    /// </summary>
    public int ReleaseStartupPagesAfterSeconds { get; set; }
}
