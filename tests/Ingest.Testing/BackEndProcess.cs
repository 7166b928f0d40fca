using System.Collections.Concurrent;
using System.Diagnostics;

namespace Ingest.Testing;

/// <summary>
/// The real back-end (<c>Ingest.BackEnd</c>, as built in this repository) in a process of its own on a loopback port:
/// for what only a process of its own shows — allocations counted without it (a benchmark that forwards to it), or the
/// runtime's settings from environment variables (a GC heap hard limit). A project that uses it references
/// Ingest.BackEnd for the build order only.
/// </summary>
public sealed class BackEndProcess : IDisposable
{
    /// <summary>The start-up line (<c>StartupReport</c>), logged once the server listens: the process is ready.</summary>
    private const string ReadyLine = "Ingest listening on";

    private static readonly string[] Configurations = ["Release", "Debug"];

    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);

    private readonly Process _process;

    private BackEndProcess(Process process, Uri address, string startupLine)
    {
        _process = process;
        Address = address;
        StartupLine = startupLine;
    }

    public Uri Address { get; }

    /// <summary>The line that tells the back-end's whole configuration (<c>role=BackEnd … memory=… window=…</c>).</summary>
    public string StartupLine { get; }

    /// <summary>Starts the back-end with <paramref name="settings"/> (configuration keys and values, passed as
    /// <c>--Key value</c>) and <paramref name="environment"/> added to this process's, and waits until it listens.
    /// Throws with the process's output when it exits first, or does not get there within 30 s.</summary>
    public static BackEndProcess Start(IEnumerable<KeyValuePair<string, string>>? settings = null, IEnumerable<KeyValuePair<string, string>>? environment = null)
    {
        var dll = Locate();
        var address = new Uri($"http://127.0.0.1:{LoopbackPorts.Free()}");
        var start = new ProcessStartInfo("dotnet", [dll, "--urls", address.ToString().TrimEnd('/')])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var (key, value) in settings ?? [])
        {
            start.ArgumentList.Add($"--{key}");
            start.ArgumentList.Add(value);
        }

        foreach (var (name, value) in environment ?? [])
        {
            start.Environment[name] = value;
        }

        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        var ready = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var log = new ConcurrentQueue<string>();
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                log.Enqueue(line);
                if (line.Contains(ReadyLine, StringComparison.Ordinal))
                {
                    ready.TrySetResult(line);
                }
            }
        };
        process.ErrorDataReceived += (_, e) => log.Enqueue(e.Data ?? "");
        process.Exited += (_, _) => ready.TrySetCanceled();
        if (!process.Start())
        {
            throw new InvalidOperationException($"Could not start dotnet {dll}.");
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            if (ready.Task.Wait(StartTimeout))
            {
                return new BackEndProcess(process, address, ready.Task.Result);
            }
        }
        catch (AggregateException) when (process.HasExited)
        {
            process.WaitForExit(); // the rest of its output
            var output = string.Join("\n", log);
            var exitCode = process.ExitCode;
            process.Dispose();
            throw new InvalidOperationException($"The back-end ({dll}) exited with {exitCode} before it listened:\n{output}");
        }

        process.Kill(entireProcessTree: true);
        process.WaitForExit();
        process.Dispose();
        throw new InvalidOperationException($"The back-end ({dll}) did not start within {StartTimeout.TotalSeconds} s:\n{string.Join("\n", log)}");
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }

        _process.Dispose();
    }

    // The caller's project references Ingest.BackEnd (build order only), so its output sits in the repository.
    private static string Locate()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "Ingest.sln")))
            {
                var candidates = Configurations
                    .Select(c => new FileInfo(Path.Combine(folder.FullName, "src", "Ingest.BackEnd", "bin", c, "net10.0", "Ingest.BackEnd.dll")))
                    .Where(f => f.Exists)
                    .OrderByDescending(f => f.LastWriteTimeUtc)
                    .ToList();
                return candidates.Count > 0
                    ? candidates[0].FullName
                    : throw new InvalidOperationException("Ingest.BackEnd is not built: dotnet build -c Release src/Ingest.BackEnd");
            }
        }

        throw new InvalidOperationException($"No Ingest.sln above {AppContext.BaseDirectory}: run from the repository.");
    }
}
