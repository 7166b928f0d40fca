using System.Diagnostics;
using Ingest.Lab.Processes;

namespace Ingest.Lab.Tests;

/// <summary>
/// crank/run-netns.sh refuses, before it makes anything, what it must not touch. A whole run publishes for a
/// minute or two and measures for as long again, too slow for the suite (docs/remote-agents.md records one run by
/// hand); these checks take a second, and need root and the Crank tools as the script does.
/// </summary>
public sealed class CrankNetnsTests
{
    private const string AppNamespace = "ingest-crank-app";
    private static readonly string Script = Path.Combine(RepositoryLayout.Find().Root, "crank", "run-netns.sh");

    [NetnsFact]
    public async Task RunNetnsRefusesANamespaceItDidNotMakeAndLeavesItInPlace()
    {
        // Someone else's namespace of the same name (here the test's own): the script must stop, not clean it up.
        var made = !await NamespaceExistsAsync();
        if (made)
        {
            Assert.Equal(0, (await RunAsync("ip", "netns", "add", AppNamespace)).Exit);
        }

        try
        {
            var (exit, output) = await RunAsync("bash", Script, "ingest");

            Assert.Equal(1, exit);
            Assert.Contains($"Network namespace {AppNamespace} exists already", output, StringComparison.Ordinal);
            Assert.DoesNotContain("Results:", output, StringComparison.Ordinal);
            Assert.True(await NamespaceExistsAsync(), "run-netns.sh deleted a namespace it had not made");
        }
        finally
        {
            if (made)
            {
                await RunAsync("ip", "netns", "del", AppNamespace);
            }
        }
    }

    [NetnsFact]
    public async Task RunNetnsNamesAScenarioTheConfigurationLacksBeforeItMakesAnything()
    {
        var before = await NamespaceExistsAsync();

        var (exit, output) = await RunAsync("bash", Script, "no-such-scenario");

        Assert.Equal(2, exit);
        Assert.Contains("No scenario 'no-such-scenario'", output, StringComparison.Ordinal);
        Assert.Equal(before, await NamespaceExistsAsync());
    }

    private static async Task<bool> NamespaceExistsAsync() =>
        (await RunAsync("ip", "netns", "list")).Output.Split('\n').Any(line => line.Split(' ')[0] == AppNamespace);

    private static Task<(int Exit, string Output)> RunAsync(string file, params string[] arguments) =>
        ChildProcess.RunAsync(new ProcessStartInfo(file, arguments), TimeSpan.FromSeconds(30));

    /// <summary>
    /// Skipped, with the reason in the test output, unless this is Linux, the test runs as root (network
    /// namespaces), and crank and crank-agent are where the script looks: on PATH, in $CRANK_TOOLS, in ~/.dotnet/tools.
    /// </summary>
    internal sealed class NetnsFactAttribute : FactAttribute
    {
        public NetnsFactAttribute()
        {
            if (!OperatingSystem.IsLinux() || !Environment.IsPrivilegedProcess)
            {
                Skip = "crank/run-netns.sh makes network namespaces: it needs Linux and root.";
            }
            else if (!CrankToolsFound())
            {
                Skip = "crank and crank-agent are not on PATH, in $CRANK_TOOLS or in ~/.dotnet/tools (docs/remote-agents.md).";
            }
        }

        private static bool CrankToolsFound() =>
            (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
                .Append(Environment.GetEnvironmentVariable("CRANK_TOOLS") ?? "")
                .Append(Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".dotnet", "tools"))
                .Any(dir => dir.Length > 0 && File.Exists(Path.Combine(dir, "crank")) && File.Exists(Path.Combine(dir, "crank-agent")));
    }
}
