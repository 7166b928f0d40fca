using System.Diagnostics;
using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Running;

/// <summary>
/// The time a run has left, from what its scenarios took so far: a first round by the first-round scenarios measured
/// (start, warm-up, repeats); a later round of services kept up by the later-round scenarios measured, or before any by
/// what it will do at the least (its re-warm, its repeats, and the checks around them).
/// </summary>
internal sealed class RunClock(IReadOnlyList<Scenario> scenarios, LabOptions options)
{
    /// <summary>What a measured scenario costs beyond its load: reading counters, the loss check, stopping.</summary>
    private static readonly TimeSpan Overhead = TimeSpan.FromSeconds(1.5);

    private readonly Stopwatch _elapsed = Stopwatch.StartNew();
    private readonly List<TimeSpan> _first = [];
    private readonly List<TimeSpan> _later = [];

    public TimeSpan Elapsed => _elapsed.Elapsed;

    public void Record(int round, TimeSpan took) => (round == 1 || !options.KeepServices ? _first : _later).Add(took);

    /// <summary>Left after <paramref name="done"/> scenarios of round <paramref name="round"/>; null before anything was measured.</summary>
    public TimeSpan? Left(int round, int done)
    {
        if (_first.Count == 0)
        {
            return null;
        }

        var firstEach = Average(_first);
        var laterRounds = options.Rounds - round;
        if (!options.KeepServices)
        {
            return firstEach * ((scenarios.Count - done) + (laterRounds * scenarios.Count));
        }

        var laterEach = _later.Count > 0 ? Average(_later) : LaterAtLeast();
        return round == 1
            ? (firstEach * (scenarios.Count - done)) + (laterEach * (laterRounds * scenarios.Count))
            : laterEach * ((scenarios.Count - done) + (laterRounds * scenarios.Count));
    }

    /// <summary>"3 min 20 s elapsed, about 4 min 10 s left".</summary>
    public string Describe(int round, int done) =>
        $"{Minutes(Elapsed)} elapsed" + (Left(round, done) is { } left ? $", about {Minutes(left)} left" : "");

    private TimeSpan LaterAtLeast()
    {
        var warm = scenarios.Average(s => (s.MinimumWarmup > options.Rewarm ? s.MinimumWarmup : options.Rewarm).TotalSeconds);
        return TimeSpan.FromSeconds(warm) + (options.Duration * options.Repeats) + Overhead;
    }

    private static TimeSpan Average(List<TimeSpan> times) => TimeSpan.FromTicks((long)times.Average(t => t.Ticks));

    private static string Minutes(TimeSpan time) =>
        time.TotalMinutes >= 1 ? $"{(int)time.TotalMinutes} min {time.Seconds} s" : $"{time.Seconds} s";
}
