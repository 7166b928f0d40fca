using Microsoft.Playwright;

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

/// <summary>
/// One Chromium for a test class (its class fixture): launched, with Playwright's driver, when a test first asks for it,
/// and closed when the class is done; each test opens a context of its own, as isolated as a browser of its own. Each
/// launch starts a driver and a browser, CPU that CI's two cores share with the other suites
/// (docs/notebook/ci-time.md#one-tree-for-both-trimmed-builds).
/// </summary>
public sealed class SharedChromium : IAsyncLifetime
{
    private readonly Lazy<Task<(IPlaywright Playwright, IBrowser Browser)>> _launched = new(LaunchAsync);

    /// <summary>A new context of the one browser (the caller disposes of it), with the viewport given.</summary>
    public async Task<IBrowserContext> NewContextAsync(int width, int height)
    {
        var (_, browser) = await _launched.Value;
        return await browser.NewContextAsync(new() { ViewportSize = new() { Width = width, Height = height } });
    }

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        if (_launched.IsValueCreated && _launched.Value.IsCompletedSuccessfully)
        {
            var (playwright, browser) = await _launched.Value;
            await browser.DisposeAsync();
            playwright.Dispose();
        }
    }

    private static async Task<(IPlaywright, IBrowser)> LaunchAsync()
    {
        var playwright = await Playwright.CreateAsync();
        return (playwright, await playwright.Chromium.LaunchAsync(new() { ExecutablePath = Chromium.Path, Headless = true, Args = Chromium.Arguments }));
    }
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
