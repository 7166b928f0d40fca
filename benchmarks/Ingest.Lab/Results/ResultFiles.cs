using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Ingest.Lab.Results;

/// <summary>Reads and writes results.json: the complete record of a run, from which summary.md and
/// report.html are made and which <c>compare</c> reads back.</summary>
internal static class ResultFiles
{
    public const string ResultsJson = "results.json";
    public const string SummaryMarkdown = "summary.md";
    public const string ReportHtml = "report.html";
    public const string HeadlineJson = "headline.json";

    internal static readonly JsonSerializerOptions Options = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Converters = { new JsonStringEnumConverter() },
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>Writes all three files; called after every scenario, so an interrupted run keeps what it measured.</summary>
    public static void WriteAll(string folder, RunReport report)
    {
        Directory.CreateDirectory(folder);
        WriteAtomically(Path.Combine(folder, ResultsJson), JsonSerializer.Serialize(report, Options));
        WriteAtomically(Path.Combine(folder, SummaryMarkdown), SummaryWriter.Write(report));
        WriteAtomically(Path.Combine(folder, ReportHtml), Report.HtmlReport.Write(report));
        if (HeadlineSummary.Of(report) is { } headline)
        {
            WriteAtomically(Path.Combine(folder, HeadlineJson), headline.ToJson());
        }
    }

    public static RunReport Read(string pathOrFolder)
    {
        var path = Directory.Exists(pathOrFolder) ? Path.Combine(pathOrFolder, ResultsJson) : pathOrFolder;
        if (!File.Exists(path))
        {
            throw new InvalidOperationException($"No {ResultsJson} at '{pathOrFolder}'.");
        }

        return JsonSerializer.Deserialize<RunReport>(File.ReadAllText(path), Options)
            ?? throw new InvalidOperationException($"'{path}' holds no run.");
    }

    private static void WriteAtomically(string path, string content)
    {
        var temporary = path + ".tmp";
        File.WriteAllText(temporary, content);
        File.Move(temporary, path, overwrite: true);
    }
}
