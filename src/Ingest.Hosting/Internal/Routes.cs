using Ingest.Core.Problems;

namespace Ingest.Hosting.Internal;

/// <summary>The contract's paths and fixed answers, named once for all API styles.</summary>
internal static class Routes
{
    public const string IngestEvent = "/ingest/event";
    public const string IngestData = "/ingest/data";
    public const string IngestStats = "/ingest/stats";
    public const string Plaintext = "/plaintext";
    public const string Json = "/json";
    public const string ValuesPrefix = "/api/values/";
    public const string Values = ValuesPrefix + "{id:int}";
    public const string Health = "/healthz";
    public const string Metrics = "/metrics";

    public const string ValueText = "value";
    public const string HealthyText = "Healthy";

    public static IngestProblem NotFound() =>
        IngestProblem.Create(ProblemKind.NotFound, "No endpoint answers this method and path.");
}
