using Ingest.Lab.Results;

namespace Ingest.Lab.Running;

/// <summary>
/// Finds the smallest memory limit a scenario fits in (<c>--fit-memory</c>): starting from a little above the largest
/// service's peak resident memory without a limit, it halves the interval between a limit known too small and one known
/// to fit until the two are within <see cref="ResolutionBytes"/> (or a sixteenth of the upper one), running the whole
/// scenario (warm-up, repeats, loss check) at each probe. A probe fits when the scenario passed, with no error, the loss
/// check passed, and a median RPS of at least <see cref="KeptThroughput"/> of the run without a memory limit. Timings
/// are noisy on a shared machine and its speed drifts over minutes: a probe that falls short on throughput alone (it
/// passed, no error) is compared again with a run without a memory limit made right after it, and fits if it keeps
/// <see cref="KeptThroughput"/> of that one — the JIT pair's probes moved 0.87–1.13× while its groups were charged the
/// same 60 MB at every limit. A probe near the edge can still fall either way, so the answer is a limit, not a law.
/// </summary>
internal static class MemoryFitSearch
{
    /// <summary>The share of its unlimited throughput a scenario must keep under the limit.</summary>
    public const double KeptThroughput = 0.95;

    /// <summary>The search stops when the bounds are this close (or a sixteenth of the upper bound, if wider).</summary>
    private const long ResolutionBytes = 4L * 1024 * 1024;

    /// <summary>The first probe: this much above the largest peak resident memory seen without a limit.</summary>
    private const double FirstProbeHeadroom = 1.25;

    /// <summary>How often the upper bound may double when even the first probe does not fit.</summary>
    private const int MaxDoublings = 2;

    private const long Megabyte = 1024 * 1024;

    public static async Task<MemoryFit?> SearchAsync(
        ScenarioResult unlimited, ServiceLimits limits, Func<ServiceLimits, Task<ScenarioResult>> run, Action<string> progress)
    {
        if (unlimited.Status != ScenarioStatus.Passed || unlimited.Summary is not { } summary)
        {
            return null;
        }

        var peak = summary.Processes.Where(p => p.Key.StartsWith("front-end", StringComparison.Ordinal) || p.Key == "back-end")
            .Select(p => p.Value.HighWaterResidentBytes).DefaultIfEmpty(0).Max();
        var target = KeptThroughput * summary.RequestsPerSecond.Median;
        var probes = new List<MemoryProbe>();

        async Task<bool> ProbeAsync(long bytes)
        {
            progress($"memory fit: probing {Format.Mb(bytes)}");
            var result = await run(limits.WithMemory(bytes));
            var rps = result.Summary?.RequestsPerSecond.Median ?? 0;
            var errors = result.Summary?.Errors ?? 0;
            var share = $"{Format.Ratio(rps / summary.RequestsPerSecond.Median)} of the unlimited RPS";
            double? again = null;
            var (kept, outcome) = result switch
            {
                { Status: not ScenarioStatus.Passed } => (false, result.Reason?.Split('\n')[0] ?? result.Status.ToString()),
                _ when errors > 0 => (false, $"{errors} errors"),
                _ when rps >= target => (true, share),
                _ => await RecheckAsync(),
            };
            probes.Add(new MemoryProbe(bytes, rps, errors, kept, outcome, result.Containers) { UnlimitedAgainRps = again });
            progress($"memory fit: {Format.Mb(bytes)} {(kept ? "fits" : "does not fit")}: {outcome}");
            return kept;

            // Short on throughput alone: against a run without the memory limit made now, not minutes ago.
            async Task<(bool, string)> RecheckAsync()
            {
                progress($"memory fit: {Format.Mb(bytes)} kept {share}; running without a memory limit again to compare");
                var fresh = await run(limits);
                if (fresh.Status != ScenarioStatus.Passed || fresh.Summary is not { RequestsPerSecond.Median: > 0 } freshSummary)
                {
                    return (false, share);
                }

                again = freshSummary.RequestsPerSecond.Median;
                var ratio = rps / again.Value;
                return (ratio >= KeptThroughput, $"{share}, {Format.Ratio(ratio)} of a run without a memory limit right after");
            }
        }

        var high = RoundUp((long)(peak * FirstProbeHeadroom));
        long low = 0;
        var doublings = 0;
        while (!await ProbeAsync(high))
        {
            if (++doublings > MaxDoublings)
            {
                return new MemoryFit { UnlimitedRps = summary.RequestsPerSecond.Median, Probes = probes };
            }

            // Known too small: the search below never probes under it again.
            low = high;
            high *= 2;
        }

        while (high - low > Math.Max(ResolutionBytes, high / 16))
        {
            var middle = RoundUp((low + high) / 2);
            if (middle >= high)
            {
                break;
            }

            if (await ProbeAsync(middle))
            {
                high = middle;
            }
            else
            {
                low = middle;
            }
        }

        return new MemoryFit { UnlimitedRps = summary.RequestsPerSecond.Median, SmallestBytes = high, Probes = probes };
    }

    private static long RoundUp(long bytes) => Math.Max(ServiceLimits.MinimumMemoryBytes, (bytes + Megabyte - 1) / Megabyte * Megabyte);
}
