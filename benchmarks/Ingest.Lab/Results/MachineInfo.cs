using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Ingest.Lab.Results;

/// <summary>The machine and toolchain a run measured on: every figure in a report is read against this.</summary>
internal sealed record MachineInfo
{
    public required string Host { get; init; }

    public required string CpuModel { get; init; }

    public required int Cores { get; init; }

    public required long MemoryBytes { get; init; }

    public required string Kernel { get; init; }

    public required string Os { get; init; }

    public required string DotNet { get; init; }

    public required string? DotNetSdk { get; init; }

    public required string? Go { get; init; }

    public required string? Wrk { get; init; }

    public required string? Nginx { get; init; }

    public required string? Caddy { get; init; }

    /// <summary>Load average (1 min) when the run started: a busy machine makes every figure noisier.</summary>
    public required double LoadAverage { get; init; }

    public static async Task<MachineInfo> ReadAsync(CancellationToken cancellationToken) => new()
    {
        Host = Environment.MachineName,
        CpuModel = CpuInfo("model name") ?? RuntimeInformation.ProcessArchitecture.ToString(),
        Cores = Environment.ProcessorCount,
        MemoryBytes = MemInfoKilobytes("MemTotal:") * 1024,
        Kernel = (await FirstLineAsync("uname", ["-r"], cancellationToken)) ?? "unknown",
        Os = RuntimeInformation.OSDescription,
        DotNet = RuntimeInformation.FrameworkDescription,
        DotNetSdk = await FirstLineAsync("dotnet", ["--version"], cancellationToken),
        Go = await FirstLineAsync("go", ["version"], cancellationToken),
        Wrk = await FirstLineAsync("wrk", ["-v"], cancellationToken),
        Nginx = await FirstLineAsync("nginx", ["-v"], cancellationToken),
        Caddy = await FirstLineAsync("caddy", ["version"], cancellationToken),
        LoadAverage = LoadAverage1(),
    };

    /// <summary>The commit the run measured (short hash, "+changes" when the work tree had uncommitted changes to tracked
    /// files); null outside a git checkout.</summary>
    public static async Task<string?> CommitAsync(string repository, CancellationToken cancellationToken)
    {
        if (await FirstLineAsync("git", ["-C", repository, "rev-parse", "--short=12", "HEAD"], cancellationToken) is not { } head
            || head.Contains(' ', StringComparison.Ordinal))
        {
            return null;
        }

        var changes = await FirstLineAsync("git", ["-C", repository, "status", "--porcelain", "--untracked-files=no"], cancellationToken);
        return string.IsNullOrEmpty(changes) ? head : head + "+changes";
    }

    /// <summary>The first line a tool prints (stdout or stderr) about itself; null when it is not installed.</summary>
    internal static async Task<string?> FirstLineAsync(string tool, string[] arguments, CancellationToken cancellationToken)
    {
        try
        {
            var start = new ProcessStartInfo(tool, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
            using var process = Process.Start(start);
            if (process is null)
            {
                return null;
            }

            var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
            var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
            await process.WaitForExitAsync(cancellationToken);
            var text = (await stdout).Trim();
            text = text.Length > 0 ? text : (await stderr).Trim();
            return text.Length == 0 ? null : text.Split('\n')[0].Trim();
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    internal static double LoadAverage1()
    {
        try
        {
            return double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            return double.NaN;
        }
    }

    private static string? CpuInfo(string key)
    {
        try
        {
            return File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith(key, StringComparison.Ordinal))?.Split(':', 2)[1].Trim();
        }
        catch (IOException)
        {
            return null;
        }
    }

    private static long MemInfoKilobytes(string key)
    {
        try
        {
            var line = File.ReadLines("/proc/meminfo").FirstOrDefault(l => l.StartsWith(key, StringComparison.Ordinal));
            return line is null ? 0 : long.Parse(line[key.Length..].Trim().Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            return 0;
        }
    }
}
