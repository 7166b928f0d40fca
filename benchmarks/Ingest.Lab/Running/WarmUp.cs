namespace Ingest.Lab.Running;

/// <summary>
/// Load until the services are warm: a first phase, then slices of <see cref="Slice"/> until two slices in a row are
/// no more than 5% faster than the one before each (tiered compilation, the thread pool and connection pools
/// settling), up to a limit. One flat slice is not enough: tiered compilation promotes methods in bursts, and a JIT
/// front-end at 300 connections held level for 5 s and then gained 2.2× over the next 9 s. On 2 cores a JIT .NET service was still gaining 40% between its second and third 4 s repeat after a
/// 6 s warm-up, while Go and Native AOT were flat: a fixed warm-up short enough for Go measures .NET before it is warm.
/// </summary>
internal static class WarmUp
{
    /// <summary>Each further warm-up phase once the first is over.</summary>
    public static readonly TimeSpan Slice = TimeSpan.FromSeconds(2);

    /// <summary>Consecutive slices without a 5% gain that end the warm-up.</summary>
    public const int FlatSlices = 2;

    /// <summary>Whether a warm-up phase was more than 5% faster than the one before it (the first always is).</summary>
    public static bool StillRising(double? previousRequestsPerSecond, double requestsPerSecond) =>
        previousRequestsPerSecond is not { } before || requestsPerSecond > before * 1.05;

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
        var elapsed = TimeSpan.Zero;
        double? previous = null;
        var flat = 0;
        var phase = first;
        for (var number = 0; ; number++)
        {
            var run = await drive(phase, number);
            successful += run.Successful;
            unknown += run.Unknown;
            elapsed += phase;
            flat = StillRising(previous, run.RequestsPerSecond) ? 0 : flat + 1;
            previous = run.RequestsPerSecond;
            if (flat >= FlatSlices || elapsed + Slice > limit)
            {
                return new WarmUpResult(successful, unknown, elapsed, Stable: flat >= FlatSlices);
            }

            phase = Slice;
        }
    }
}

/// <summary>What a warm-up sent and how it ended.</summary>
internal sealed record WarmUpResult(long Successful, long Unknown, TimeSpan Elapsed, bool Stable)
{
    public string Describe() => $"warm-up {Elapsed.TotalSeconds:0.#} s ({(Stable ? "stable" : "limit reached, still rising")})";
}
