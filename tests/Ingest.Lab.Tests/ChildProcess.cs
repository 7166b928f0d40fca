using System.Diagnostics;

namespace Ingest.Lab.Tests;

/// <summary>A program a test runs to its end: its exit code and what it wrote; if it outlives <c>deadline</c>, it is
/// killed with everything it started and the exit code is -1.</summary>
internal static class ChildProcess
{
    /// <summary>Standard output, then error, as one text (a timeout says so in front of them).</summary>
    public static async Task<(int Exit, string Output)> RunAsync(ProcessStartInfo start, TimeSpan deadline)
    {
        var (exit, output, error) = await RunApartAsync(start, deadline);
        return (exit, exit == -1 ? $"timed out after {deadline}: {output}{error}" : output + error);
    }

    /// <summary>Standard output and error kept apart, for a program whose output is data (JSON) and not a message.</summary>
    public static async Task<(int Exit, string Output, string Error)> RunApartAsync(ProcessStartInfo start, TimeSpan deadline)
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
            return (-1, await output, await error);
        }

        return (process.ExitCode, await output, await error);
    }
}
