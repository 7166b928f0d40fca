using Ingest.Lab.Running;
using Ingest.LoadGen;

namespace Ingest.Lab.Results;

/// <summary>Everything measured for one scenario: its configuration, every repeat, the cross-check, the loss check.</summary>
internal sealed record ScenarioResult
{
    public required string Set { get; init; }

    public required string Name { get; init; }

    public required string Title { get; init; }

    /// <summary>Services and load in words, e.g. "front-end: DotNet Ingest:ApiStyle=Raw".</summary>
    public required IReadOnlyDictionary<string, string> Configuration { get; init; }

    public required ScenarioStatus Status { get; init; }

    /// <summary>Why it failed or was skipped, with the services' last log lines when they matter.</summary>
    public string? Reason { get; init; }

    /// <summary>How long the services were warmed up before the repeats (until they stopped getting faster).</summary>
    public double WarmupSeconds { get; init; }

    /// <summary>The measured repeats with our load generator.</summary>
    public IReadOnlyList<LoadRun> Runs { get; init; } = [];

    /// <summary>The same load driven by wrk, when the run asked for a cross-check.</summary>
    public LoadRun? CrossCheck { get; init; }

    public LossCheck? Loss { get; init; }

    public ScenarioSummary? Summary { get; init; }

    /// <summary>Each .NET service as Prometheus scraped it over the measured repeats (<c>--prometheus</c>), by job
    /// ("front-end", "back-end"); null when the run did not ask for it.</summary>
    public IReadOnlyDictionary<string, PrometheusFigures>? Prometheus { get; init; }

    /// <summary>Each service's limits and what its runtime and the kernel saw (<c>--limit</c>); empty when unlimited.</summary>
    public IReadOnlyList<ContainerFigures> Containers { get; init; } = [];

    /// <summary>The smallest memory limit that kept this scenario's throughput (<c>--fit-memory</c>); null when not searched.</summary>
    public MemoryFit? MemoryFit { get; init; }

    public string Id => $"{Set}/{Name}";
}
