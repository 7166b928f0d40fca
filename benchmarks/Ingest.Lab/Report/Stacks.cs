using Ingest.Lab.Results;

namespace Ingest.Lab.Report;

/// <summary>Which stack serves a scenario (its front-end's), and the colour the report gives each, so .NET, Go and Rust
/// rows, and the floor, can be told apart at a glance.</summary>
internal static class Stacks
{
    /// <summary>.NET's purple, Go's blue, Rust's rust; the floor (nginx) and anything else grey.</summary>
    public static readonly IReadOnlyDictionary<string, string> Colors = new Dictionary<string, string>
    {
        [".NET"] = "#512bd4",
        ["Go"] = "#00a7d0",
        ["Rust"] = "#b7410e",
        ["other"] = "#8c8c8c",
    };

    /// <summary>".NET", "Go", "Rust" or "other", from the front-end's description ("DotNet ...", "GoNetHttp ...",
    /// "GoFastHttp ...", "RustHyper ...", "Nginx ...").</summary>
    public static string Of(ScenarioResult result) =>
        result.Configuration.GetValueOrDefault("front-end") switch
        {
            { } frontEnd when frontEnd.StartsWith("DotNet", StringComparison.Ordinal) => ".NET",
            { } frontEnd when frontEnd.StartsWith("Go", StringComparison.Ordinal) => "Go",
            { } frontEnd when frontEnd.StartsWith("Rust", StringComparison.Ordinal) => "Rust",
            _ => "other",
        };

    public static string Color(ScenarioResult result) => Colors[Of(result)];
}
