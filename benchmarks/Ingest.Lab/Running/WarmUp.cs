using Ingest.LoadGen;

namespace Ingest.Lab.Running;

/// <summary>
/// Load until the services are warm, by <see cref="WarmUpRule"/> (shared with the load generator's
/// <c>--warmup-limit</c>, which Crank's load job uses): a first phase, then slices while the rate still rises, up to
/// a limit. Each phase is a load generator run of its own, so each reports its own rate.
/// </summary>
internal static class WarmUp
{
    /// <summary>Drives phases (<paramref name="drive"/> gets the phase's length and number) until warm; returns what
    /// they acknowledged, what had an unknown outcome, how long it took, and whether it stopped rising.</summary>
    public static async Task<WarmUpResult> RunAsync(TimeSpan first, TimeSpan limit, Func<TimeSpan, int, Task<LoadRun>> drive)
    {
        if (first <= TimeSpan.Zero)
        {
            return new WarmUpResult(0, 0, TimeSpan.Zero, Stable: true);
        }

        long successful = 0;
        long unknown = 0;
        var rule = new WarmUpRule(limit);
        var phase = first;
        for (var number = 0; ; number++)
        {
            var run = await drive(phase, number);
            successful += run.Successful;
            unknown += run.Unknown;
            if (rule.Over(phase, run.RequestsPerSecond))
            {
                return new WarmUpResult(successful, unknown, rule.Elapsed, rule.Stable);
            }

            phase = WarmUpRule.Slice;
        }
    }
}

/// <summary>What a warm-up sent and how it ended.</summary>
internal sealed record WarmUpResult(long Successful, long Unknown, TimeSpan Elapsed, bool Stable)
{
    public string Describe() => $"warm-up {Elapsed.TotalSeconds:0.#} s ({(Stable ? "stable" : "limit reached, still rising")})";
}
