using System.Diagnostics;

namespace Ingest.Lab.Faults;

/// <summary>
/// The system tools the faults' network is made with: <c>ip</c>, <c>tc</c> and <c>ss</c> (Debian package iproute2) and
/// <c>nft</c> (nftables). Each is run to its end; a failure names the command line and what the tool said, so a kernel
/// without a feature the faults need (a netfilter hook, a qdisc) says which.
/// </summary>
internal static class NetworkTools
{
    /// <summary>The Debian packages that bring the tools.</summary>
    public static readonly IReadOnlyList<string> Packages = ["iproute2", "nftables"];

    private static readonly string[] Tools = ["ip", "tc", "ss", "nft"];
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    /// <summary>The first tool that is not on PATH, with its package; null when every one is there.</summary>
    public static string? Missing()
    {
        var path = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries);
        var missing = Array.Find(Tools, tool => !path.Any(dir => File.Exists(Path.Combine(dir, tool))));
        return missing is null ? null : $"'{missing}' is not installed (Debian package {(missing == "nft" ? "nftables" : "iproute2")})";
    }

    /// <summary>Runs the tool; its output, or an exception naming the command line and what the tool printed.</summary>
    public static string Run(string tool, IReadOnlyList<string> arguments, string? input = null)
    {
        var (exit, output) = TryRun(tool, arguments, input);
        return exit == 0 ? output : throw new InvalidOperationException($"`{tool} {string.Join(' ', arguments)}` failed ({exit}): {output.Trim()}");
    }

    /// <summary><c>nft -f -</c> in the network namespace <paramref name="space"/>, with <paramref name="rules"/> as its input.</summary>
    public static void Nft(string space, string rules) => Run("ip", ["netns", "exec", space, "nft", "-f", "-"], rules);

    /// <summary>Runs the tool to its end (they take milliseconds: synchronously); its exit code and everything it printed
    /// (stdout, then stderr). Never cancelled: what makes or removes the network runs to its end, even when the lab is
    /// stopping.</summary>
    public static (int Exit, string Output) TryRun(string tool, IReadOnlyList<string> arguments, string? input = null)
    {
        var start = new ProcessStartInfo(tool, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = input is not null,
        };
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{tool} did not start.");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        if (input is not null)
        {
            process.StandardInput.Write(input);
            process.StandardInput.Close();
        }

        if (!process.WaitForExit(Timeout))
        {
            process.Kill(entireProcessTree: true);
            return (-1, $"did not finish within {Timeout.TotalSeconds:0} s");
        }

#pragma warning disable VSTHRD002 // The process has exited: its output is complete.
        return (process.ExitCode, stdout.Result + stderr.Result);
#pragma warning restore VSTHRD002
    }
}
