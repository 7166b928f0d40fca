using System.Diagnostics;

namespace Ingest.Lab.Tests;

/// <summary>A program a test runs to its end: its exit code and what it wrote (standard output, then error); if it
/// outlives <c>deadline</c>, it is killed with everything it started and the exit code is -1.</summary>
internal static class ChildProcess
{
    public static async Task<(int Exit, string Output)> RunAsync(ProcessStartInfo start, TimeSpan deadline)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(deadline);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            return (-1, $"timed out after {deadline}: {await output}{await error}");
        }

        return (process.ExitCode, await output + await error);
    }
}
