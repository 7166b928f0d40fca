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
                usages[^1].FinalResidentBytes);
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
/// mark (warm-up included) and resident memory after the last repeat.</summary>
internal sealed record ProcessSummary(Spread CpuCores, Spread PeakResidentBytes, long HighWaterResidentBytes, long FinalResidentBytes);
