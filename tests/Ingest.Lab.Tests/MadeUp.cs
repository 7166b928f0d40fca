using Ingest.Lab.Catalogue;
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

    /// <summary>A run of <paramref name="scenarios"/> on a made-up machine, as summary.md and report.html are written from.</summary>
    public static RunReport Report(IReadOnlyList<ScenarioResult> scenarios) => new()
    {
        RunId = "20261128-000000",
        StartedAt = DateTimeOffset.UnixEpoch,
        Command = "Ingest.Lab",
        Machine = new MachineInfo
        {
            Host = "test",
            CpuModel = "a CPU",
            Cores = 2,
            MemoryBytes = 1L << 30,
            Kernel = "6.1",
            Os = "Linux",
            DotNet = ".NET 10",
            DotNetSdk = null,
            Go = null,
            Wrk = null,
            Nginx = null,
            Caddy = null,
            LoadAverage = 0,
        },
        Settings = new RunSettings([ScenarioCatalogue.HeadlineSet], 2, 3, 20, 3, "not pinned", false, "one machine", Rounds: 2),
        Scenarios = scenarios,
    };

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
