namespace Ingest.Lab.Results;

/// <summary>
/// What each scenario is compared with in its set's ratio table: Go net/http (pooled) at the same connection
/// count where the set has it — the 2016 question — else the set's first scenario under the same load (a
/// transport's /json is compared with Sockets' /json, never with the ingest flow).
/// </summary>
internal static class Baselines
{
    public static ScenarioResult? For(ScenarioResult scenario, IReadOnlyList<ScenarioResult> set)
    {
        var suffix = Suffix(scenario.Name);
        return set.FirstOrDefault(s => s.Name.StartsWith("go-nethttp", StringComparison.Ordinal)
                && !s.Name.Contains("per-request", StringComparison.Ordinal)
                && Suffix(s.Name) == suffix)
            ?? set.FirstOrDefault(s => Load(s) == Load(scenario));
    }

    private static string? Load(ScenarioResult scenario) => scenario.Configuration.GetValueOrDefault("load");

    // "aspnet-static-c50" -> "-c50"; "go-nethttp-x3" -> "-x3"
    private static string Suffix(string name)
    {
        var dash = name.LastIndexOf('-');
        return dash < 0 ? "" : name[dash..];
    }
}
