namespace Ingest.Lab.Catalogue;

/// <summary>
/// One service of a scenario: the program, its settings (configuration keys for .NET, flags for a peer), its
/// environment (GC mode and the like) and how it is built (JIT or Native AOT).
/// </summary>
internal sealed record ServiceSpec(Implementation Implementation)
{
    public static readonly IReadOnlyDictionary<string, string> None = new Dictionary<string, string>();

    public IReadOnlyDictionary<string, string> Settings { get; init; } = None;

    public IReadOnlyDictionary<string, string> Environment { get; init; } = None;

    /// <summary>Published with Native AOT instead of run on the JIT (.NET only).</summary>
    public bool NativeAot { get; init; }

    /// <summary>
    /// On the JIT, but published self-contained and trimmed (.NET only): the runtime then maps only the framework code the
    /// service can reach, as IL the JIT compiles, where the default build maps the whole shared framework's ReadyToRun
    /// assemblies (docs/configuration.md#trimmed-jit-build).
    /// </summary>
    public bool Trimmed { get; init; }

    /// <summary>
    /// Native AOT compiled with a profile of this workload: before the scenario runs, the lab runs its JIT build under
    /// the same load with the runtime writing its instrumentation data, turns that into a .mibc (benchmarks/Ingest.Pgo)
    /// and publishes with it (<see cref="Running.ProfileTraining"/>).
    /// </summary>
    public bool ProfileGuided { get; init; }

    /// <summary>
    /// Native AOT compiled with the profiles the service ships (aot-profile/*.mibc beside its project, made by the lab's
    /// <c>train</c> command), as every Native AOT publish is by default; false publishes the build without any profile of
    /// this workload (<c>-p:IngestAotShippedProfile=false</c>), to measure what the shipped one buys. A build-time switch
    /// only: the service starts the same way either way.
    /// </summary>
    public bool ShippedProfile { get; init; } = true;

    /// <summary>The .mibc a training run made for this service; set by the lab before it publishes a profile-guided service.</summary>
    public string? Profile { get; init; }

    /// <summary>
    /// The order its functions are laid out in (a file of function names), from a code trace of the profile-guided
    /// build under the same load; set by the lab with <see cref="Profile"/>.
    /// </summary>
    public string? Layout { get; init; }

    /// <summary>A .NET service's settings as its command line takes them: <c>--Key value</c> for each.</summary>
    public IEnumerable<string> SettingArguments => Settings.SelectMany(s => new[] { "--" + s.Key, s.Value });

    public static ServiceSpec DotNet(params (string Key, string Value)[] settings) =>
        new(Implementation.DotNet) { Settings = settings.ToDictionary(s => s.Key, s => s.Value) };

    /// <summary>A peer's service (Go, Rust, the nginx floor) with its command-line flags, without the leading dash.</summary>
    public static ServiceSpec Peer(Implementation implementation, params (string Flag, string Value)[] flags) =>
        new(implementation) { Settings = flags.ToDictionary(f => f.Flag, f => f.Value) };

    /// <summary>Whether the service, as a back-end, counts what it persisted on <c>GET /ingest/stats</c> (the loss check
    /// reads it): every implementation but the nginx floor.</summary>
    public bool Counts => Implementation != Implementation.Nginx;

    public ServiceSpec With(params (string Key, string Value)[] settings)
    {
        var merged = new Dictionary<string, string>(Settings);
        foreach (var (key, value) in settings)
        {
            merged[key] = value;
        }

        return this with { Settings = merged };
    }

    public ServiceSpec WithEnvironment(params (string Key, string Value)[] environment)
    {
        var merged = new Dictionary<string, string>(Environment);
        foreach (var (key, value) in environment)
        {
            merged[key] = value;
        }

        return this with { Environment = merged };
    }

    /// <summary>A short human description: "DotNet Ingest:ApiStyle=Mvc …".</summary>
    public string Describe() =>
        string.Join(" ", new[] { Implementation.ToString() + (NativeAot ? ProfileGuided ? "(AOT+PGO)" : ShippedProfile ? "(AOT)" : "(AOT, no profile)" : Trimmed ? "(trimmed)" : "") }
            .Concat(Settings.OrderBy(s => s.Key, StringComparer.Ordinal).Select(s => $"{s.Key}={s.Value}"))
            .Concat(Environment.OrderBy(s => s.Key, StringComparer.Ordinal).Select(s => $"{s.Key}={s.Value}")));
}
