using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Ingest.Benchmarks.Micro;

/// <summary>
/// The real back-end (<c>Ingest.BackEnd</c>, built with this suite) in a process of its own on a loopback port, so a
/// benchmark that forwards to it counts only the forwarding side's allocations: the memory diagnoser sees this
/// process alone.
/// </summary>
internal sealed class BackEndProcess : IDisposable
{
    private static readonly string[] Configurations = ["Release", "Debug"];

    private readonly Process _process;

    private BackEndProcess(Process process, Uri address)
    {
        _process = process;
        Address = address;
    }

    public Uri Address { get; }

    public static BackEndProcess Start()
    {
        var dll = Locate();
        var port = FreePort();
        var address = new Uri($"http://127.0.0.1:{port}");
        var start = new ProcessStartInfo("dotnet", [dll, "--urls", address.ToString().TrimEnd('/'), "--Sinks:Default", "Null"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start dotnet {dll}.");
        var ready = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var log = new System.Collections.Concurrent.ConcurrentQueue<string>();
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                log.Enqueue(line);
                if (line.Contains("Application started.", StringComparison.Ordinal))
                {
                    ready.TrySetResult();
                }
            }
        };
        process.ErrorDataReceived += (_, e) => log.Enqueue(e.Data ?? "");
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        if (!ready.Task.Wait(TimeSpan.FromSeconds(30)))
        {
            process.Kill(entireProcessTree: true);
            throw new InvalidOperationException($"The back-end ({dll}) did not start within 30 s:\n{string.Join("\n", log)}");
        }

        return new BackEndProcess(process, address);
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

    // The suite's project references Ingest.BackEnd (build order only), so its output sits in the repository.
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

        throw new InvalidOperationException($"No Ingest.sln above {AppContext.BaseDirectory}: run the suite from the repository.");
    }

    private static int FreePort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
