namespace Ingest.Lab.Tests;

/// <summary>
/// Where Crank's controller and agent are on this machine, looked for as crank/lib.sh looks: on PATH, then in
/// $CRANK_TOOLS, then in ~/.dotnet/tools (dotnet tool install -g). They are not on the package mirror: a machine has
/// them only when someone installed them (docs/crank.md), so tests that need them say so when they are missing.
/// </summary>
internal static class CrankTools
{
    private static readonly Lazy<string?> Found = new(Find);

    /// <summary>The folder holding both <c>crank</c> and <c>crank-agent</c>; null when the machine has neither.</summary>
    public static string? Folder => Found.Value;

    public static string MissingReason =>
        "Crank is not installed here: no crank and crank-agent on PATH, in $CRANK_TOOLS or in ~/.dotnet/tools " +
        "(dotnet tool install -g Microsoft.Crank.Controller / Microsoft.Crank.Agent; docs/crank.md).";

    private static string? Find()
    {
        var candidates = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Append(Environment.GetEnvironmentVariable("CRANK_TOOLS") ?? "")
            .Append(Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".dotnet", "tools"));
        return candidates.FirstOrDefault(dir => dir.Length > 0 && File.Exists(Path.Combine(dir, "crank")) && File.Exists(Path.Combine(dir, "crank-agent")));
    }
}

/// <summary>A fact that needs Crank's tools: skipped, with the reason in the test output, where they are missing.</summary>
internal sealed class CrankFactAttribute : FactAttribute
{
    public CrankFactAttribute()
    {
        if (CrankTools.Folder is null)
        {
            Skip = CrankTools.MissingReason;
        }
    }
}
