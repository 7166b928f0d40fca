using System.Diagnostics;

namespace Ingest.Lab.Running;

/// <summary>
/// Samples CPU (and its kernel part) and resident memory of a set of processes at a fixed rate (10 Hz) while a phase runs, so the
/// report can show peak, mean and after-run memory and the CPU each process used.
/// </summary>
internal sealed class ResourceSampler : IAsyncDisposable
{
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(100);

    private readonly Dictionary<string, int> _processes;
    private readonly Dictionary<string, List<ProcessSample>> _samples = [];
    private readonly CancellationTokenSource _stop = new();
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly Task _loop;

    private readonly Lock _lock = new();

    public ResourceSampler(IReadOnlyDictionary<string, int> processes)
    {
        _processes = new Dictionary<string, int>(processes);
        foreach (var name in _processes.Keys)
        {
            _samples[name] = [];
        }

        Sample(whole: true);
        _loop = RunAsync();
    }

    /// <summary>Adds a process started after sampling began (the load generator of the phase).</summary>
    public void Track(string name, int pid)
    {
        lock (_lock)
        {
            _processes[name] = pid;
            _samples[name] = [];
        }
    }

    /// <summary>Stops sampling and returns what each process used.</summary>
    public async Task<Dictionary<string, ProcessUsage>> StopAsync()
    {
        await _stop.CancelAsync();
        await _loop;
        Sample(whole: true);
        var usage = new Dictionary<string, ProcessUsage>();
        lock (_lock)
        {
            foreach (var (name, samples) in _samples)
            {
                usage[name] = ProcessUsage.From(samples, ProcFs.PeakResidentBytes(_processes[name]));
            }
        }

        return usage;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_stop.IsCancellationRequested)
        {
            await _stop.CancelAsync();
            await _loop;
        }

        _stop.Dispose();
    }

    private async Task RunAsync()
    {
        using var timer = new PeriodicTimer(Interval);
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token))
            {
                Sample();
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    /// <summary>A reading of every process; <paramref name="whole"/> adds the context switches (a read per thread).</summary>
    private void Sample(bool whole = false)
    {
        lock (_lock)
        {
            var at = _clock.Elapsed.TotalSeconds;
            foreach (var (name, pid) in _processes)
            {
                if (ProcFs.CpuTimes(pid) is { } cpu && ProcFs.ResidentBytes(pid) is { } rss)
                {
                    _samples[name].Add(new ProcessSample(at, cpu.User + cpu.Kernel, rss, cpu.Kernel, whole ? ProcFs.ContextSwitches(pid) : null));
                }
            }
        }
    }
}
