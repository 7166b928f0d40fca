namespace Ingest.Lab.Running;

/// <summary>What one process used during a measured phase: CPU (as a share of one core) and resident memory.</summary>
internal sealed record ProcessUsage
{
    /// <summary>CPU seconds per wall-clock second over the phase: 1.0 is one core fully busy.</summary>
    public required double CpuCores { get; init; }

    /// <summary>Highest CPU share between two consecutive samples.</summary>
    public required double PeakCpuCores { get; init; }

    public required long MeanResidentBytes { get; init; }

    /// <summary>Highest resident memory seen by the sampler.</summary>
    public required long PeakResidentBytes { get; init; }

    /// <summary>The kernel's high-water mark (VmHWM) since the process started, warm-up included.</summary>
    public required long? HighWaterResidentBytes { get; init; }

    /// <summary>Resident memory at the end of the phase.</summary>
    public required long FinalResidentBytes { get; init; }

    public required int Samples { get; init; }

    /// <summary>The kernel's part of <see cref="CpuCores"/> (system time: sockets, io_uring, scheduling); null in results
    /// written before the lab read it.</summary>
    public double? KernelShare { get; init; }

    /// <summary>Context switches per second over the phase, every thread (<see cref="ProcFs.ContextSwitches"/>); null
    /// when they could not be read at both ends.</summary>
    public double? ContextSwitchesPerSecond { get; init; }

    /// <summary>What a .NET service's garbage collector did in the phase; null for any other process.</summary>
    public GcUsage? Gc { get; init; }

    /// <summary>Memory and CPU over time, one point per sample: [seconds, cores, resident bytes].</summary>
    public required IReadOnlyList<double[]> Series { get; init; }

    public static ProcessUsage From(IReadOnlyList<ProcessSample> samples, long? highWater)
    {
        if (samples.Count < 2)
        {
            var only = samples.Count == 1 ? samples[0].ResidentBytes : 0;
            return new ProcessUsage
            {
                CpuCores = 0, PeakCpuCores = 0, MeanResidentBytes = only, PeakResidentBytes = only,
                HighWaterResidentBytes = highWater, FinalResidentBytes = only, Samples = samples.Count, Series = [],
            };
        }

        var first = samples[0];
        var last = samples[^1];
        double peakCpu = 0;
        long peakRss = 0;
        double rssSum = 0;
        var series = new List<double[]>(samples.Count);
        for (var i = 0; i < samples.Count; i++)
        {
            var s = samples[i];
            peakRss = Math.Max(peakRss, s.ResidentBytes);
            rssSum += s.ResidentBytes;
            var cores = i == 0 ? 0 : (s.CpuSeconds - samples[i - 1].CpuSeconds) / Math.Max(1e-6, s.AtSeconds - samples[i - 1].AtSeconds);
            peakCpu = Math.Max(peakCpu, cores);
            series.Add([s.AtSeconds - first.AtSeconds, Math.Round(cores, 3), s.ResidentBytes]);
        }

        var seconds = Math.Max(1e-6, last.AtSeconds - first.AtSeconds);
        var cpu = last.CpuSeconds - first.CpuSeconds;
        return new ProcessUsage
        {
            CpuCores = cpu / seconds,
            KernelShare = cpu > 0 ? (last.KernelSeconds - first.KernelSeconds) / cpu : null,
            ContextSwitchesPerSecond = last.ContextSwitches - first.ContextSwitches is { } switches ? switches / seconds : null,
            PeakCpuCores = peakCpu,
            MeanResidentBytes = (long)(rssSum / samples.Count),
            PeakResidentBytes = peakRss,
            HighWaterResidentBytes = highWater,
            FinalResidentBytes = last.ResidentBytes,
            Samples = samples.Count,
            Series = series,
        };
    }
}
