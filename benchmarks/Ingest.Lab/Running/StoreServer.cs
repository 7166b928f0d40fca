using System.Diagnostics;
using System.Globalization;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;

namespace Ingest.Lab.Running;

/// <summary>
/// A store started for one scenario: PostgreSQL or Redis through the repository's scripts (tests/lib/postgres.sh,
/// redis.sh: loopback only, a throwaway directory), or an empty directory for the file sink. Carries the settings the
/// back-end needs to reach it; disposing stops it and deletes its directory.
/// </summary>
internal sealed class StoreServer : IAsyncDisposable
{
    private static readonly TimeSpan ScriptTimeout = TimeSpan.FromSeconds(90);

    private readonly string? _script;
    private readonly string _directory;

    private StoreServer(StoreKind kind, string? script, string directory, IReadOnlyDictionary<string, string> settings)
    {
        Kind = kind;
        _script = script;
        _directory = directory;
        Settings = settings;
    }

    public StoreKind Kind { get; }

    /// <summary>Configuration keys for the back-end, e.g. <c>Sinks:Redis:Endpoint</c>.</summary>
    public IReadOnlyDictionary<string, string> Settings { get; }

    /// <summary>The Debian package a store needs, for the installer.</summary>
    public static string? Package(StoreKind kind) => kind switch
    {
        StoreKind.PostgreSql => "postgresql",
        StoreKind.Redis => "redis-server",
        _ => null,
    };

    public static async Task<StoreServer> StartAsync(StoreKind kind, RepositoryLayout layout, CancellationToken cancellationToken)
    {
        // Directly under the temp folder, not in the results: PostgreSQL runs as its own user when the lab runs as
        // root and must be able to enter every parent, and a store's data is no result.
        var directory = Path.Combine(Path.GetTempPath(), $"ingest-lab-{kind.ToString().ToLowerInvariant()}-{Guid.NewGuid():N}");
        if (kind == StoreKind.Files)
        {
            Directory.CreateDirectory(directory);
            return new StoreServer(kind, null, directory, new Dictionary<string, string> { ["Sinks:File:Directory"] = directory });
        }

        var port = FreePorts.Next().ToString(CultureInfo.InvariantCulture);
        var (script, settings) = kind == StoreKind.PostgreSql
            ? ("postgres.sh", new Dictionary<string, string> { ["Sinks:PostgreSql:ConnectionString"] = $"Host=127.0.0.1;Port={port};Username=ingest;Database=postgres" })
            : ("redis.sh", new Dictionary<string, string> { ["Sinks:Redis:Endpoint"] = $"127.0.0.1:{port}" });
        var server = new StoreServer(kind, Path.Combine(layout.Root, "tests", "lib", script), directory, settings);
        try
        {
            var (exit, said) = await server.RunAsync(["start", directory, port], cancellationToken);
            if (exit == 3)
            {
                throw new ScenarioSkippedException($"{kind}: {said} (Debian package {Package(kind)})");
            }

            if (exit != 0)
            {
                throw new InvalidOperationException($"{script} start failed ({exit}): {said}");
            }

            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_script is not null)
        {
            // Not the scenario's token: the store is stopped and deleted even when the run was cancelled.
            await RunAsync(["destroy", _directory], CancellationToken.None);
        }
        else if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private async Task<(int Exit, string Said)> RunAsync(string[] arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo("bash", [_script!, .. arguments])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(ScriptTimeout);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        return (process.ExitCode, ((await stdout) + (await stderr)).Trim());
    }
}
