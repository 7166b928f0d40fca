using System.Diagnostics;

namespace Ingest.Lab.Processes;

/// <summary>
/// A service the lab started: its process, the last lines it logged (for the report when it fails), and a
/// stop that always ends it — SIGTERM first, so it shuts down gracefully, then a kill.
/// </summary>
internal sealed class ServiceProcess : IAsyncDisposable
{
    private const int KeptLines = 200;
    public const string ReadyText = "Application started.";

    private readonly Process _process;
    private readonly Queue<string> _lines = new();
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private ServiceProcess(string name, Process process)
    {
        Name = name;
        _process = process;
        _process.OutputDataReceived += (_, e) => Record(e.Data);
        _process.ErrorDataReceived += (_, e) => Record(e.Data);
        _process.Exited += (_, _) => _ready.TrySetException(new InvalidOperationException($"{name} exited with code {SafeExitCode()} before it was ready."));
    }

    public string Name { get; }

    public int ProcessId => _process.Id;

    public bool HasExited => _process.HasExited;

    /// <summary>Called with every line the process writes (stdout and stderr), on a thread-pool thread; the soak
    /// reads Go's GC trace (<c>GODEBUG=gctrace=1</c>) through it. Null (the default) for none.</summary>
    public Action<string>? LineObserver { get; set; }

    /// <summary>Starts <paramref name="fileName"/> with arguments and environment; does not wait for readiness.</summary>
    public static ServiceProcess Start(string name, string fileName, IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null)
    {
        var start = new ProcessStartInfo(fileName, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Path.GetDirectoryName(fileName) ?? Environment.CurrentDirectory,
        };
        foreach (var (key, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[key] = value;
        }

        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        var service = new ServiceProcess(name, process);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return service;
    }

    /// <summary>Waits for the ready line; throws with the service's last log lines if it exits or takes too long.</summary>
    public async Task WaitUntilReadyAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        try
        {
            await _ready.Task.WaitAsync(timeout, cancellationToken);
        }
        catch (TimeoutException)
        {
            throw new InvalidOperationException($"{Name} did not print '{ReadyText}' within {timeout.TotalSeconds:0} s. Last lines:\n{LastLines()}");
        }
        catch (InvalidOperationException ex)
        {
            // It exited: Exited is raised as soon as the process is gone, before the pipes have given up their last
            // lines — and the last line is the one that says why. WaitForExitAsync returns once both pipes reached their
            // end (bounded: a child the service left behind may hold them open).
            using var drained = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await _process.WaitForExitAsync(drained.Token).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            throw new InvalidOperationException($"{ex.Message} Last lines:\n{LastLines()}", ex);
        }
    }

    public string LastLines(int count = 20)
    {
        lock (_lines)
        {
            return string.Join("\n", _lines.Skip(Math.Max(0, _lines.Count - count)));
        }
    }

    /// <summary>Asks the process to stop (SIGTERM), waits up to <paramref name="grace"/>, then kills it.</summary>
    public async Task StopAsync(TimeSpan grace)
    {
        if (_process.HasExited)
        {
            return;
        }

        Signals.Terminate(_process.Id);
        using var wait = new CancellationTokenSource(grace);
        try
        {
            await _process.WaitForExitAsync(wait.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }
    }

    /// <summary>Ends the process at once (SIGKILL): no shutdown code runs, as when it crashes or is OOM-killed.</summary>
    public async Task KillAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync(TimeSpan.FromSeconds(10));
        _process.Dispose();
    }

    private void Record(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_lines)
        {
            _lines.Enqueue(line);
            if (_lines.Count > KeptLines)
            {
                _lines.Dequeue();
            }
        }

        LineObserver?.Invoke(line);
        if (line.Contains(ReadyText, StringComparison.Ordinal))
        {
            _ready.TrySetResult();
        }
    }

    private string SafeExitCode()
    {
        try
        {
            return _process.ExitCode.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (InvalidOperationException)
        {
            return "?";
        }
    }
}
