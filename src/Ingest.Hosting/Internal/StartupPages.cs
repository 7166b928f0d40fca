using System.Globalization;
using Ingest.Wire.Linux;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Internal;

/// <summary>
/// <see cref="MemoryOptions.ReleaseStartupPagesAfterSeconds"/>: once the service has served for that long, asks the
/// kernel to reclaim every page it has mapped read-only of its program's files: the executable and what lies in its
/// folder (a Native AOT build's single file; a self-contained build's runtime and assemblies; for the dotnet host, the
/// shared runtime). The kernel reclaims a page only when it is clean and this process alone maps it, so the call can
/// drop nothing the process wrote, nor a page another service on the machine maps too; a page the service touches
/// again faults back in.
/// </summary>
internal sealed partial class StartupPages(
    IOptions<MemoryOptions> options,
    IHostApplicationLifetime lifetime,
    ILogger<StartupPages> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var seconds = options.Value.ReleaseStartupPagesAfterSeconds;
        if (seconds <= 0 || !OperatingSystem.IsLinux())
        {
            return;
        }

        var started = new TaskCompletionSource();
        using (lifetime.ApplicationStarted.Register(started.SetResult))
        using (stoppingToken.Register(started.SetCanceled))
        {
            try
            {
                await started.Task;
                await Task.Delay(TimeSpan.FromSeconds(seconds), stoppingToken);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }

        var before = ResidentMegabytes();
        var (mappings, bytes, refused) = Release();
        var after = ResidentMegabytes();
        LogReleased(logger, mappings, bytes / 1048576.0, before, after, refused);
    }

    /// <summary>Pages out the read-only mappings of files in the executable's folder; how many, how large, and how many
    /// the kernel refused.</summary>
    internal static (int Mappings, long Bytes, int Refused) Release()
    {
        var program = Environment.ProcessPath is { } path ? Path.GetFullPath(path) : null;
        if (program is null || !File.Exists("/proc/self/maps"))
        {
            return (0, 0, 0);
        }

        var folder = Path.GetDirectoryName(program) + "/";
        int mappings = 0, refused = 0;
        long bytes = 0;
        foreach (var line in File.ReadLines("/proc/self/maps"))
        {
            // start-end perms offset dev inode path
            var fields = line.Split(' ', 6, StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length < 6 || fields[1][1] == 'w' || !fields[5].Trim().StartsWith(folder, StringComparison.Ordinal))
            {
                continue;
            }

            var range = fields[0].Split('-');
            var start = nint.Parse(range[0], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            var length = (nuint)(long.Parse(range[1], NumberStyles.HexNumber, CultureInfo.InvariantCulture) - start);
            mappings++;
            bytes += (long)length;
            if (LibC.madvise(start, length, LibC.MADV_PAGEOUT) != 0)
            {
                refused++;
            }
        }

        return (mappings, bytes, refused);
    }

    private static double ResidentMegabytes()
    {
        using var process = System.Diagnostics.Process.GetCurrentProcess();
        return process.WorkingSet64 / 1048576.0;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Released the start-up pages of the program's files ({Mappings} read-only mappings, {Megabytes:0.0} MB mapped): resident {Before:0.0} -> {After:0.0} MB; the kernel refused {Refused}")]
    private static partial void LogReleased(ILogger logger, int mappings, double megabytes, double before, double after, int refused);
}
