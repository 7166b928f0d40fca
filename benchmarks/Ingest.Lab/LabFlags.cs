namespace Ingest.Lab;

/// <summary>
/// The flags of a <c>run</c> as they were given, before they meet the chosen sets' plan in
/// <see cref="LabOptions.From"/>. A value flag that was not given is null (a switch, false), so that the plan, not this
/// record, decides what "not given" means: <see cref="Repeats"/>, <see cref="Rounds"/>, <see cref="Warmup"/>,
/// <see cref="WarmupLimit"/> and <see cref="Duration"/> may come to depend on the set.
/// </summary>
internal sealed record LabFlags
{
    /// <summary><c>--smoke</c>: the smoke plan (<see cref="LabOptions.SmokeDefaults"/>) is the starting point,
    /// wherever the flag stands.</summary>
    public bool Smoke { get; init; }

    /// <summary><c>--filter</c>; null = not given.</summary>
    public string? Filter { get; init; }

    /// <summary><c>--repeat</c>/<c>--repeats</c>; null = the plan's.</summary>
    public int? Repeats { get; init; }

    /// <summary><c>--rounds</c>; null = the plan's.</summary>
    public int? Rounds { get; init; }

    /// <summary><c>--warmup</c>; null = the plan's.</summary>
    public TimeSpan? Warmup { get; init; }

    /// <summary><c>--warmup-limit</c>; null = the plan's.</summary>
    public TimeSpan? WarmupLimit { get; init; }

    /// <summary><c>--duration</c>; null = the plan's.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary><c>--requests</c>; null = the plan's.</summary>
    public long? Requests { get; init; }

    /// <summary><c>--training</c>; null = the plan's.</summary>
    public TimeSpan? Training { get; init; }

    /// <summary><c>--pin</c>.</summary>
    public bool Pin { get; init; }

    /// <summary><c>--wrk</c>.</summary>
    public bool Wrk { get; init; }

    /// <summary><c>--prometheus</c>.</summary>
    public bool Prometheus { get; init; }

    /// <summary><c>--no-install</c>.</summary>
    public bool NoInstall { get; init; }

    /// <summary><c>--limit</c>; null = not given.</summary>
    public Running.ServiceLimits? Limits { get; init; }

    /// <summary><c>--fit-memory</c>.</summary>
    public bool FitMemory { get; init; }

    /// <summary><c>--front-end</c>; null = not given.</summary>
    public IReadOnlyDictionary<string, string>? FrontEndSettings { get; init; }

    /// <summary><c>--output</c>; null = not given.</summary>
    public string? Output { get; init; }
}
