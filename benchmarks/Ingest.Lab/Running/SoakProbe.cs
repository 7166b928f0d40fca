using System.Diagnostics;

namespace Ingest.Lab.Running;

/// <summary>
/// Samples, once a second during a soak, what can explain a latency tail: GC pauses and collections of each
/// service, .NET's thread-pool threads and queue and its timers, every process's CPU and threads, and the
/// machine's busy and stolen CPU beyond the soak's own processes. A .NET service's figures come from its
/// <c>/metrics</c> (one small scrape a second); a Go service's GC pauses from the trace its runtime writes under
/// <c>GODEBUG=gctrace=1</c>, which the soak sets for it (<see cref="GoGcTrace"/>).
/// </summary>
internal sealed class SoakProbe : IDisposable
{
    private static readonly TimeSpan ScrapeTimeout = TimeSpan.FromSeconds(1);

    private readonly List<Watched> _watched = [];
    private readonly HttpClient _http = new() { Timeout = ScrapeTimeout };
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private (double Busy, double Steal)? _machine = ProcFs.MachineCpuSeconds();
    private double _lastAt;
    private int _loadGenerator;
    private double? _loadGeneratorCpu;

    public SoakProbe(Topology topology)
    {
        foreach (var process in topology.Processes)
        {
            var watched = new Watched(process.Name, process.ProcessId, topology.Metrics.GetValueOrDefault(process.Name))
            {
                LastCpu = ProcFs.CpuSeconds(process.ProcessId),
            };
            if (watched.Metrics is null)
            {
                process.LineObserver = watched.ObserveGoTrace;
            }

            _watched.Add(watched);
        }
    }

    /// <summary>The load generator's process, whose CPU is the soak's own and not "other".</summary>
    public void WatchLoadGenerator(int pid)
    {
        _loadGenerator = pid;
        _loadGeneratorCpu = ProcFs.CpuSeconds(pid);
    }

    /// <summary>Restarts the clock: seconds are counted from here (the start of the soak's load).</summary>
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        _ = await SampleAsync(0, cancellationToken); // sets every baseline
        _clock.Restart();
        _lastAt = 0;
    }

    /// <summary>What happened since the last sample, as second <paramref name="second"/>.</summary>
    public async Task<SoakSecond> SampleAsync(int second, CancellationToken cancellationToken)
    {
        var scrapes = _watched.Select(w => w.Metrics is null ? Task.FromResult<RuntimeCounters?>(null) : RuntimeCounters.ReadAsync(_http, w.Metrics, cancellationToken)).ToArray();
        var counters = await Task.WhenAll(scrapes);
        var at = _clock.Elapsed.TotalSeconds;
        var elapsed = Math.Max(at - _lastAt, 1e-3);
        _lastAt = at;

        var processes = new List<SoakProcessSecond>(_watched.Count);
        var ours = 0.0;
        for (var i = 0; i < _watched.Count; i++)
        {
            var w = _watched[i];
            var cpu = ProcFs.CpuSeconds(w.Pid);
            var cores = Delta(cpu, w.LastCpu) / elapsed;
            w.LastCpu = cpu;
            ours += cores;
            double? pause, collections, gen2 = null;
            if (w.Metrics is null)
            {
                (pause, collections) = w.TakeGoTrace();
            }
            else
            {
                var now = counters[i];
                var last = w.LastCounters;
                pause = Delta(now?.GcPauseSeconds, last?.GcPauseSeconds) * 1000;
                collections = Delta(now?.Collections, last?.Collections);
                gen2 = Delta(now?.Gen2Collections, last?.Gen2Collections);
                w.LastCounters = now ?? last;
                if (now is null)
                {
                    pause = collections = gen2 = null; // the scrape failed or timed out: itself a sign of a stall
                }
            }

            processes.Add(new SoakProcessSecond(w.Name, Math.Round(cores, 3), ProcFs.Threads(w.Pid) ?? 0, Round(pause), collections, gen2,
                counters[i]?.PoolThreads, counters[i]?.PoolQueue, counters[i]?.Timers));
        }

        var loadGeneratorCpu = _loadGenerator > 0 ? ProcFs.CpuSeconds(_loadGenerator) : null;
        var loadGeneratorCores = Delta(loadGeneratorCpu, _loadGeneratorCpu) / elapsed;
        _loadGeneratorCpu = loadGeneratorCpu ?? _loadGeneratorCpu;
        var machine = ProcFs.MachineCpuSeconds();
        var busy = machine is { } m && _machine is { } p ? (m.Busy - p.Busy) / elapsed : 0;
        var steal = machine is { } m2 && _machine is { } p2 ? (m2.Steal - p2.Steal) / elapsed : 0;
        _machine = machine ?? _machine;
        var other = Math.Max(0, busy - ours - loadGeneratorCores);
        return new SoakSecond(second, Math.Round(busy, 3), Math.Round(steal, 3), Math.Round(other, 3), ProcFs.LoadAverage(), Math.Round(loadGeneratorCores, 3), processes);
    }

    public void Dispose() => _http.Dispose();

    private static double Delta(double? now, double? before) => now is { } n && before is { } b ? Math.Max(0, n - b) : 0;

    private static double? Round(double? value) => value is { } v ? Math.Round(v, 3) : null;

    /// <summary>One service under watch, with its last readings. The Go trace arrives on the output reader's thread.</summary>
    private sealed class Watched(string name, int pid, Uri? metrics)
    {
        private readonly Lock _lock = new();
        private double _goPauseMs;
        private int _goCollections;

        public string Name { get; } = name;

        public int Pid { get; } = pid;

        public Uri? Metrics { get; } = metrics;

        public double? LastCpu { get; set; }

        public RuntimeCounters? LastCounters { get; set; }

        public void ObserveGoTrace(string line)
        {
            if (GoGcTrace.TryPauseMilliseconds(line, out var pause))
            {
                lock (_lock)
                {
                    _goPauseMs += pause;
                    _goCollections++;
                }
            }
        }

        public (double PauseMs, double Collections) TakeGoTrace()
        {
            lock (_lock)
            {
                var taken = (_goPauseMs, (double)_goCollections);
                (_goPauseMs, _goCollections) = (0, 0);
                return taken;
            }
        }
    }
}
