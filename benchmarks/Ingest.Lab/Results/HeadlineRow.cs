namespace Ingest.Lab.Results;

/// <summary>One scenario of a headline run: its flow and load, its median RPS with the interval, p99 and memory.</summary>
internal sealed record HeadlineRow(string Name, string Flow, int Connections, double Rps, double RpsLower, double RpsUpper, double P99Ms, double FrontEndPeakRssBytes, int Measurements, bool LossCheckPassed)
{
    public const string FastestFlow = "aspnet-fastest";

    /// <summary>nginx to nginx, no JSON work (<see cref="Catalogue.Implementation.Nginx"/>).</summary>
    public const string FloorFlow = "floor-nginx";

    private static readonly Dictionary<string, string> Labels = new()
    {
        ["aspnet-2016"] = "ASP.NET Core as in 2016 (MVC, Newtonsoft, HttpClient per request, `.Result`)",
        ["aspnet-default"] = "ASP.NET Core default (minimal API, Sockets, static HttpClient)",
        [FastestFlow] = "ASP.NET Core fastest (`--environment Fastest`)",
        ["go-nethttp"] = "Go net/http (pooled client)",
        ["go-fasthttp"] = "Go fasthttp (fasthttp both sides)",
        ["rust-hyper"] = "Rust hyper + tokio (hyper both sides)",
        [FloorFlow] = "The floor: nginx to nginx, no JSON work",
    };

    public static string Label(string flow) => Labels.GetValueOrDefault(flow, flow);

    public static HeadlineRow Of(ScenarioResult result)
    {
        var connections = LoadOf.Connections(result);
        var (median, lower, upper) = Verdict.MedianInterval(Verdict.Rates(result));
        var summary = result.Summary;
        return new HeadlineRow(
            result.Name,
            result.Name.EndsWith($"-c{connections}", StringComparison.Ordinal) ? result.Name[..^$"-c{connections}".Length] : result.Name,
            connections,
            median,
            lower,
            upper,
            summary?.P99.Median ?? double.NaN,
            summary?.Processes.GetValueOrDefault("front-end")?.PeakResidentBytes.Median ?? double.NaN,
            result.Runs.Count,
            result.Status == ScenarioStatus.Passed);
    }

    /// <summary>"34,132 (33,010–35,270)", or the failure.</summary>
    public string DescribeRps() => !LossCheckPassed ? $"{Format.Rps(Rps)} (failed)"
        : double.IsNaN(RpsLower) ? Format.Rps(Rps)
        : $"{Format.Rps(Rps)} ({Format.Rps(RpsLower)}–{Format.Rps(RpsUpper)})";
}
