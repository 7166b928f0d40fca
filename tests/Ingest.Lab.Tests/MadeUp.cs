using Ingest.Lab.Results;
using Ingest.Lab.Running;
using Ingest.LoadGen;

namespace Ingest.Lab.Tests;

/// <summary>Scenario results made up in a test, for the code that folds, compares and renders them (no service runs).</summary>
internal static class MadeUp
{
    /// <summary>A result whose measured repeats served <paramref name="rps"/> requests a second each.</summary>
    public static ScenarioResult Result(ScenarioStatus status, LossCheck? loss, params double[] rps) =>
        Result("fast", "row", "DotNet", 50, status, loss, rps);

    /// <summary>A result of <paramref name="set"/>/<paramref name="name"/> served by <paramref name="frontEnd"/> ("DotNet",
    /// "GoNetHttp", ...) at <paramref name="connections"/>.</summary>
    public static ScenarioResult Result(string set, string name, string frontEnd, int connections, ScenarioStatus status, LossCheck? loss, params double[] rps)
    {
        IReadOnlyList<LoadRun> runs = [.. rps.Select(Run)];
        return new ScenarioResult
        {
            Set = set,
            Name = name,
            Title = "a row",
            Configuration = new Dictionary<string, string> { ["front-end"] = frontEnd, ["load"] = $"POST /ingest/event Classic c={connections}" },
            Status = status,
            Runs = runs,
            Summary = runs.Count == 0 ? null : ScenarioSummary.From(runs),
            Loss = loss,
        };
    }

    private static LoadRun Run(double rps) => new()
    {
        Driver = "loadgen",
        Seconds = 3,
        RequestsPerSecond = rps,
        Responses = (long)(rps * 3),
        Successful = (long)(rps * 3),
        Unknown = 0,
        Latency = new LatencyFigures(1, 1, 1, 1, 2, 3, 4),
        Errors = new Dictionary<string, long>(),
        Timeline = [(long)rps, (long)rps, (long)rps],
    };
}
