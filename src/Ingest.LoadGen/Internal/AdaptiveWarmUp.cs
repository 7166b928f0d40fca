using System.Diagnostics;

namespace Ingest.LoadGen.Internal;

/// <summary>
/// The adaptive warm-up of a closed-loop run (<see cref="LoadOptions.WarmupLimit"/>): watches the workers' warm-up
/// responses slice by slice while they run, and starts the measured phase once <see cref="WarmUpRule"/> says the
/// target is warm or the limit is reached. The connections stay open throughout, as in a fixed warm-up.
/// </summary>
internal static class AdaptiveWarmUp
{
    /// <summary>Returns whether the rate stopped rising (false: the limit ended it, or the run stopped first).</summary>
    public static async Task<bool> RunAsync(RunState run, Worker[] workers, LoadOptions options, Task finished)
    {
        var rule = new WarmUpRule(options.WarmupLimit!.Value);
        var phase = options.Warmup > TimeSpan.Zero ? options.Warmup : WarmUpRule.Slice;
        var counted = 0L;
        var sliceStart = Stopwatch.GetTimestamp();
        while (true)
        {
            if (await Task.WhenAny(finished, Task.Delay(phase)) == finished || run.StopRequested)
            {
                return false;
            }

            var now = Stopwatch.GetTimestamp();
            var responses = WarmUpResponses(workers);
            var rate = (responses - counted) / Stopwatch.GetElapsedTime(sliceStart, now).TotalSeconds;
            (counted, sliceStart) = (responses, now);
            if (rule.Over(phase, rate))
            {
                run.BeginMeasurement(now);
                return rule.Stable;
            }

            phase = WarmUpRule.Slice;
        }
    }

    // Each worker writes its own count; a read from here may be a few responses behind, which a 2 s slice does not feel.
    private static long WarmUpResponses(Worker[] workers)
    {
        long total = 0;
        foreach (var worker in workers)
        {
            total += Volatile.Read(ref worker.Statistics.WarmupRequests);
        }

        return total;
    }
}
