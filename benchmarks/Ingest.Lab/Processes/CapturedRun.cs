using System.Diagnostics;

namespace Ingest.Lab.Processes;

/// <summary>A tool run to its end with its output kept (standard output, then standard error), for a step whose output
/// only matters when it fails: a publish, a baseline's build.</summary>
internal static class CapturedRun
{
    public static async Task<(int Exit, string Output)> RunAsync(string file, IEnumerable<string> arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(file, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {file}.");
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        return (process.ExitCode, await stdout + await stderr);
    }
}
