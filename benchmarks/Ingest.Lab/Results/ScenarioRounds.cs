using Ingest.Lab.Running;
using Ingest.LoadGen;

namespace Ingest.Lab.Results;

/// <summary>
/// One scenario measured in several rounds (<c>--rounds N</c>): every round starts its services afresh, warms them
/// up and measures its repeats, and the rounds of all the scenarios are interleaved (round 1 of each, then round 2
/// of each, ...), so a machine whose speed drifts over minutes spreads the drift over every scenario instead of
/// favouring the ones that happened to run in a fast minute. This folds a round into what the earlier rounds gave.
/// </summary>
internal static class ScenarioRounds
{
    /// <summary>
    /// The repeats of both, one summary over all of them; a failure in any round fails the scenario (its reason names
    /// the round); the loss check adds up rounds that each passed on their own (each round has its own back-end).
    /// </summary>
    public static ScenarioResult Merge(ScenarioResult earlier, ScenarioResult round, int roundNumber)
    {
        if (earlier.Status == ScenarioStatus.Skipped)
        {
            return round;
        }

        if (round.Status == ScenarioStatus.Skipped)
        {
            return earlier with { Reason = AddReason(earlier.Reason, $"round {roundNumber} skipped: {round.Reason}") };
        }

        IReadOnlyList<LoadRun> runs = [.. earlier.Runs, .. round.Runs];
        var failed = earlier.Status == ScenarioStatus.Failed || round.Status == ScenarioStatus.Failed;
        var loss = earlier.Loss is { } a && round.Loss is { } b
            ? new LossCheck(a.Acknowledged + b.Acknowledged, a.Unknown + b.Unknown, a.Persisted + b.Persisted)
            : earlier.Loss ?? round.Loss;
        string? reason;
        if (round.Status == ScenarioStatus.Failed)
        {
            reason = AddReason(earlier.Status == ScenarioStatus.Failed ? earlier.Reason : null, $"round {roundNumber}: {round.Reason}");
        }
        else if (earlier.Status == ScenarioStatus.Failed)
        {
            reason = earlier.Reason;
        }
        else
        {
            reason = loss is null ? null : $"{loss.Describe()} (over {roundNumber} rounds, each checked on its own)";
        }

        return earlier with
        {
            Status = failed ? ScenarioStatus.Failed : ScenarioStatus.Passed,
            Reason = reason,
            WarmupSeconds = Math.Max(earlier.WarmupSeconds, round.WarmupSeconds),
            Runs = runs,
            Summary = runs.Count == 0 ? null : ScenarioSummary.From(runs),
            Loss = loss,
            CrossCheck = round.CrossCheck ?? earlier.CrossCheck,
            Prometheus = round.Prometheus ?? earlier.Prometheus,
            Containers = round.Containers.Count != 0 ? round.Containers : earlier.Containers,
        };
    }

    private static string AddReason(string? earlier, string added) => earlier is null ? added : earlier + "\n" + added;
}
