using Ingest.Lab.Results;

namespace Ingest.Lab.Report;

/// <summary>Which stack serves a scenario (its front-end's), and the colour the report gives each, so .NET and Go rows
/// can be told apart at a glance.</summary>
internal static class Stacks
{
    /// <summary>.NET's purple and Go's blue; any other stack grey.</summary>
    public static readonly IReadOnlyDictionary<string, string> Colors = new Dictionary<string, string>
    {
        [".NET"] = "#512bd4",
        ["Go"] = "#00a7d0",
        ["other"] = "#8c8c8c",
    };

    /// <summary>".NET", "Go" or "other", from the front-end's description ("DotNet ...", "GoNetHttp ...", "GoFastHttp ...").</summary>
    public static string Of(ScenarioResult result) =>
        result.Configuration.GetValueOrDefault("front-end") is { } frontEnd
            ? frontEnd.StartsWith("DotNet", StringComparison.Ordinal) ? ".NET" : frontEnd.StartsWith("Go", StringComparison.Ordinal) ? "Go" : "other"
            : "other";

    public static string Color(ScenarioResult result) => Colors[Of(result)];
}
