namespace Ingest.Lab.Results;

/// <summary>The whole of one lab run: results.json holds exactly this.</summary>
internal sealed record RunReport
{
    public const int CurrentSchema = 1;

    public int Schema { get; init; } = CurrentSchema;

    public required string RunId { get; init; }

    public required DateTimeOffset StartedAt { get; init; }

    public DateTimeOffset? FinishedAt { get; init; }

    /// <summary>The command line that produced it.</summary>
    public required string Command { get; init; }

    public required MachineInfo Machine { get; init; }

    /// <summary>The repository's commit the run measured (<see cref="MachineInfo.CommitAsync"/>); null when unknown.</summary>
    public string? Commit { get; init; }

    public required RunSettings Settings { get; init; }

    public required IReadOnlyList<ScenarioResult> Scenarios { get; init; }
}

/// <summary>How the run was driven: the same for every scenario of it.</summary>
internal sealed record RunSettings(
    IReadOnlyList<string> Sets,
    int Repeats,
    double WarmupSeconds,
    double WarmupLimitSeconds,
    double DurationSeconds,
    string Pinning,
    bool CrossCheckWithWrk,
    string Placement,
    int Rounds = 1);
