namespace Ingest.Testing.Browser;

// Linked into each test project that drives a browser (a source file, not a library: the shared test library
// Ingest.Testing also serves the benchmarks, which need neither xunit nor a browser).

/// <summary>Debian's Chromium on PATH, and the flags it runs with here: headless, no sandbox (tests run as root), and
/// nothing that reaches out to the network on its own.</summary>
internal static class Chromium
{
    private static readonly Lazy<string?> Found = new(static () =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
            .SelectMany(static dir => new[] { System.IO.Path.Combine(dir, "chromium"), System.IO.Path.Combine(dir, "chromium-browser") })
            .FirstOrDefault(File.Exists));

    public static string[] Arguments { get; } =
        ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

    public static string? Path => Found.Value;

    public static string MissingReason => "Chromium is not on PATH: install Debian's chromium (tests/test.sh does).";
}

/// <summary>A theory that needs Chromium: skipped, with the reason, where it is missing.</summary>
public sealed class ChromiumTheoryAttribute : TheoryAttribute
{
    public ChromiumTheoryAttribute()
    {
        if (Chromium.Path is null)
        {
            Skip = Chromium.MissingReason;
        }
    }
}

/// <summary>A fact that needs Chromium: skipped, with the reason, where it is missing.</summary>
public sealed class ChromiumFactAttribute : FactAttribute
{
    public ChromiumFactAttribute()
    {
        if (Chromium.Path is null)
        {
            Skip = Chromium.MissingReason;
        }
    }
}
