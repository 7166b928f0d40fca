using Ingest.Lab.Running;

namespace Ingest.Lab.Results;

/// <summary>The repeats of a scenario reduced to median and spread: what tables and charts show.</summary>
internal sealed record ScenarioSummary
{
    public required Spread RequestsPerSecond { get; init; }

    public required Spread P50 { get; init; }

    public required Spread P99 { get; init; }

    public required Spread Max { get; init; }

    public required long Errors { get; init; }

    /// <summary>Per process: CPU (cores) and peak resident memory over the repeats.</summary>
    public required IReadOnlyDictionary<string, ProcessSummary> Processes { get; init; }

    /// <summary>The spread of the repeats that have the figure; null when none has.</summary>
    private static Spread? SpreadOf(IReadOnlyList<double?> values) =>
        values.Where(v => v is not null).Select(v => v!.Value).ToArray() is { Length: > 0 } known ? Spread.Of(known) : null;

    public static ScenarioSummary From(IReadOnlyList<LoadRun> runs)
    {
        var processes = new Dictionary<string, ProcessSummary>();
        foreach (var name in runs.SelectMany(r => r.Processes.Keys).Distinct())
        {
            var usages = runs.Where(r => r.Processes.ContainsKey(name)).Select(r => r.Processes[name]).ToList();
            processes[name] = new ProcessSummary(
                Spread.Of([.. usages.Select(u => u.CpuCores)]),
                Spread.Of([.. usages.Select(u => (double)u.PeakResidentBytes)]),
                usages.Max(u => u.HighWaterResidentBytes ?? u.PeakResidentBytes),
                usages[^1].FinalResidentBytes,
                GcSummary.Of([.. runs.Where(r => r.Processes.GetValueOrDefault(name)?.Gc is not null).Select(r => (r.Processes[name].Gc!, r.Responses))]),
                SpreadOf([.. usages.Select(u => u.KernelShare)]),
                SpreadOf([.. runs.Where(r => r.Processes.ContainsKey(name) && r.RequestsPerSecond > 0).Select(r => r.Processes[name].ContextSwitchesPerSecond / r.RequestsPerSecond)]));
        }

        return new ScenarioSummary
        {
            RequestsPerSecond = Spread.Of([.. runs.Select(r => r.RequestsPerSecond)]),
            P50 = Spread.Of([.. runs.Select(r => r.Latency.P50)]),
            P99 = Spread.Of([.. runs.Select(r => r.Latency.P99)]),
            Max = Spread.Of([.. runs.Select(r => r.Latency.Max)]),
            Errors = runs.Sum(r => r.ErrorCount),
            Processes = processes,
        };
    }
}

/// <summary>A process over the repeats: CPU in cores, peak resident bytes per repeat, the kernel's high-water
/// mark (warm-up included), resident memory after the last repeat, for a .NET service its collector's work, the
/// kernel's share of its CPU and its context switches a request (null where not read).</summary>
internal sealed record ProcessSummary(Spread CpuCores, Spread PeakResidentBytes, long HighWaterResidentBytes, long FinalResidentBytes, GcSummary? Gc = null,
    Spread? KernelShare = null, Spread? ContextSwitchesPerRequest = null);

/// <summary>A .NET service's collector over the repeats (<see cref="GcUsage"/>): bytes allocated a request, the share
/// of the time paused, collections of each generation per 1,000 requests, and exceptions a second (null when no repeat
/// read them).</summary>
internal sealed record GcSummary(Spread AllocatedBytesPerRequest, Spread PauseShare, Spread Gen0PerThousandRequests, Spread Gen1PerThousandRequests, Spread Gen2PerThousandRequests,
    Spread? ExceptionsPerSecond = null)
{
    /// <summary>The repeats that have figures, each with the responses it served; null when none has.</summary>
    public static GcSummary? Of(IReadOnlyList<(GcUsage Gc, long Requests)> repeats) =>
        repeats.Count == 0
            ? null
            : new GcSummary(
                Spread.Of([.. repeats.Select(r => r.Gc.AllocatedBytesPerRequest)]),
                Spread.Of([.. repeats.Select(r => r.Gc.PauseShare)]),
                Spread.Of([.. repeats.Select(r => r.Gc.Gen0Collections * 1000 / r.Requests)]),
                Spread.Of([.. repeats.Select(r => r.Gc.Gen1Collections * 1000 / r.Requests)]),
                Spread.Of([.. repeats.Select(r => r.Gc.Gen2Collections * 1000 / r.Requests)]),
                repeats.Any(r => r.Gc.ExceptionsPerSecond is not null)
                    ? Spread.Of([.. repeats.Where(r => r.Gc.ExceptionsPerSecond is not null).Select(r => r.Gc.ExceptionsPerSecond!.Value)])
                    : null);
}
