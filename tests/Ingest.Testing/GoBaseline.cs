using System.Diagnostics;

namespace Ingest.Testing;

/// <summary>
/// The Go net/http baseline (src/baselines/go) as a real process: built once per test run with its own build.sh
/// (Debian's Go, offline), started on a loopback port, stopped with the test. Tests that need it skip with
/// <see cref="MissingReason"/> on a machine without Go.
/// </summary>
public sealed class GoBaseline : IAsyncDisposable
{
    private const string ReadyLine = "Application started.";

    private static readonly Lazy<(string? Binary, string? Missing)> Built = new(Build);

    private readonly Process _process;

    private GoBaseline(Process process, Uri baseAddress)
    {
        _process = process;
        BaseAddress = baseAddress;
    }

    public Uri BaseAddress { get; }

    /// <summary>Why the baseline cannot run here; null when it can.</summary>
    public static string? MissingReason => Built.Value.Missing;

    /// <summary>Starts <c>ingest-go</c> with <paramref name="arguments"/> (role, back-ends, …) on a free loopback port.</summary>
    public static async Task<GoBaseline> StartAsync(params string[] arguments)
    {
        var binary = Built.Value.Binary ?? throw new InvalidOperationException(MissingReason);
        using var probe = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        probe.Start();
        var port = ((System.Net.IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();

        var start = new ProcessStartInfo(binary, [.. arguments, "-listen", $"127.0.0.1:{port}"]) { RedirectStandardOutput = true, RedirectStandardError = true };
        var process = Process.Start(start)!;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        try
        {
            while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
            {
                if (line == ReadyLine)
                {
                    _ = process.StandardOutput.ReadToEndAsync(CancellationToken.None); // keep the pipe drained
                    return new GoBaseline(process, new Uri($"http://127.0.0.1:{port}/"));
                }
            }
        }
        catch (OperationCanceledException)
        {
        }

        process.Kill();
        throw new InvalidOperationException($"ingest-go {string.Join(' ', arguments)} did not start: {await process.StandardError.ReadToEndAsync()}");
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private static (string?, string?) Build()
    {
        var root = AppContext.BaseDirectory;
        while (root is not null && !File.Exists(Path.Combine(root, "Ingest.sln")))
        {
            root = Path.GetDirectoryName(root);
        }

        if (root is null)
        {
            return (null, "the repository (Ingest.sln) was not found above the test binaries");
        }

        var go = Path.Combine(root, "src", "baselines", "go");
        var start = new ProcessStartInfo("bash", [Path.Combine(go, "build.sh"), "--nethttp-only"]) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var build = Process.Start(start)!;
        var output = build.StandardOutput.ReadToEnd() + build.StandardError.ReadToEnd();
        build.WaitForExit();
        var binary = Path.Combine(go, "bin", "ingest-go");
        return build.ExitCode == 0 && File.Exists(binary)
            ? (binary, null)
            : (null, "the Go baseline did not build (src/baselines/go/build.sh needs Debian's golang-go): " + output.Trim().Split('\n')[^1]);
    }
}
