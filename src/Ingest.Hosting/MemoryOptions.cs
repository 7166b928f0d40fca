namespace Ingest.Hosting;

/// <summary>Memory a service gives back once it serves. Bound from the <c>Memory</c> section of both services.</summary>
public sealed class MemoryOptions
{
    public const string SectionName = "Memory";

    /// <summary>
    /// Seconds after start-up at which the service hands the pages of its program's files back to the kernel
    /// (<c>MADV_PAGEOUT</c> on the read-only mappings of files in the executable's folder), so that of the program only
    /// what serving touches is resident again: a Native AOT service reads its whole compressed type data and runs code and
    /// data only start-up needs, a trimmed self-contained build maps its runtime and IL the JIT has compiled, and the
    /// kernel keeps every page of them mapped otherwise. Pages still in use come back on their next touch, from the page
    /// cache or the disk, once. Nothing written is dropped, nor a page another process maps too: the kernel reclaims only
    /// clean pages this process alone maps (for the dotnet host, the shared runtime: little, where other .NET processes
    /// run). 0 = never (the default).
    /// </summary>
    public int ReleaseStartupPagesAfterSeconds { get; set; }
}
