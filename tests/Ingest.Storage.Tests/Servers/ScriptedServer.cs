using System.Diagnostics;
using Ingest.Testing;

namespace Ingest.Storage.Tests.Servers;

/// <summary>
/// A store server started and stopped through the repository's scripts (tests/lib/postgres.sh, redis.sh), the same
/// ones the lab and a human use: a throwaway directory under the temp folder, a free loopback port, deleted on dispose.
/// </summary>
public abstract class ScriptedServer : IAsyncDisposable
{
    private readonly string _script;
    private readonly string[] _extra;

    protected ScriptedServer(string script, string name, params string[] extra)
    {
        _script = Path.Combine(RepositoryRoot(), "tests", "lib", script);
        _extra = extra;
        // Directly under the temp folder: PostgreSQL runs as another user when the tests run as root, and must
        // be able to enter every parent of its data directory.
        Directory = Path.Combine(Path.GetTempPath(), $"ingest-{name}-{Guid.NewGuid():N}");
        Port = LoopbackPorts.Free();
    }

    public string Directory { get; }

    public int Port { get; }

    public bool Running { get; private set; }

    public async Task StartAsync()
    {
        await RunAsync(["start", Directory, Port.ToString(System.Globalization.CultureInfo.InvariantCulture), .. _extra]);
        Running = true;
    }

    public async Task StopAsync()
    {
        await RunAsync(["stop", Directory]);
        Running = false;
    }

    public async ValueTask DisposeAsync()
    {
        await RunAsync(["destroy", Directory]);
        Running = false;
        GC.SuppressFinalize(this);
    }

    private async Task RunAsync(string[] arguments)
    {
        var start = new ProcessStartInfo("bash", [_script, .. arguments])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(90));
        await process.WaitForExitAsync(timeout.Token);
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException(
                $"{Path.GetFileName(_script)} {string.Join(' ', arguments)} exited with {process.ExitCode} (tests/test.sh installs postgresql and redis-server): {await stdout}{await stderr}");
        }
    }

    private static string RepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Ingest.sln")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("Ingest.sln not found above " + AppContext.BaseDirectory);
    }
}
