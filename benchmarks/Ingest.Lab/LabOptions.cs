namespace Ingest.Lab;

/// <summary>What a <c>run</c> was asked to do: the chosen sets' plan with the flags given on the command line
/// (<see cref="From"/>). Every problem names its flag.</summary>
internal sealed record LabOptions
{
    public IReadOnlyList<string> Sets { get; init; } = [Catalogue.ScenarioCatalogue.DefaultSet];

    /// <summary>Only scenarios whose name contains this (case-insensitive), or one of several separated by commas;
    /// null = all of the sets.</summary>
    public string? Filter { get; init; }

    /// <summary>Measured repeats per scenario (median and spread come from them). Defaults to 3.</summary>
    public int Repeats { get; init; } = 3;

    /// <summary>Rounds over the whole list of scenarios (<c>--rounds N</c>): each round starts every scenario afresh,
    /// warms it up and measures its repeats, and the rounds are interleaved, so drift of the machine's speed over minutes
    /// is spread over every scenario (<see cref="Results.ScenarioRounds"/>). Defaults to 1.</summary>
    public int Rounds { get; init; } = 1;

    /// <summary>The first warm-up phase before the measured repeats, not reported; the warm-up goes on in 2 s slices
    /// while the services are still getting faster, up to <see cref="WarmupLimit"/>. Defaults to 2 s.</summary>
    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>The longest warm-up (<c>--warmup-limit</c>); equal to <see cref="Warmup"/> for a fixed one. Defaults to
    /// 30 s: a JIT .NET pair of services on 2 cores needed about 20 s under load to stop getting faster.</summary>
    public TimeSpan WarmupLimit { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Each measured repeat. Defaults to 3 s: with the warm-up the classic set then finishes in about
    /// five minutes on 2 cores.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(3);

    /// <summary>Keep every scenario's services up from one round to the next (<see cref="Catalogue.RunPlan"/>): the first
    /// round warms them up, a later one only for <see cref="Rewarm"/>. Defaults to off (the headline set's plan turns it on).</summary>
    public bool KeepServices { get; init; }

    /// <summary>With <see cref="KeepServices"/>: the warm-up of a scenario in a later round. Defaults to 0.</summary>
    public TimeSpan Rewarm { get; init; }

    /// <summary>Most requests in each phase (warm-up and every repeat); null = bounded by duration only. Defaults to null.</summary>
    public long? Requests { get; init; }

    /// <summary>How long a profile-guided Native AOT scenario's JIT twin runs under the scenario's load to collect its
    /// profile (<c>--training</c>, see <see cref="Running.ProfileTraining"/>), once per run. Defaults to 20 s: dynamic PGO
    /// has instrumented and left the hot methods well within that.</summary>
    public TimeSpan Training { get; init; } = TimeSpan.FromSeconds(20);

    /// <summary>Pin the load generator to CPU 0 and the services to the others (taskset). Defaults to off.</summary>
    public bool Pin { get; init; }

    /// <summary>Also drive every scenario with wrk, for a cross-check in the report. Defaults to off.</summary>
    public bool Wrk { get; init; }

    /// <summary>Start Debian's Prometheus for every scenario, scraping the .NET services' /metrics, and report its
    /// view (rate, p99, CPU, memory per service) beside the load generator's. Defaults to off.</summary>
    public bool Prometheus { get; init; }

    /// <summary>A memory limit and CPU quota for every front-end and back-end process, each in a cgroup of its own as a
    /// container runtime would run it (<c>--limit memory=128M,cpus=1</c>). Defaults to none.</summary>
    public Running.ServiceLimits Limits { get; init; } = Running.ServiceLimits.None;

    /// <summary>After each scenario, search the smallest memory limit at which it keeps its throughput
    /// (<c>--fit-memory</c>, see <see cref="Running.MemoryFitSearch"/>). Defaults to off.</summary>
    public bool FitMemory { get; init; }

    /// <summary>Settings on top of the scenario's for every .NET front-end of the run (<c>--front-end Key=Value</c>), e.g. a
    /// longer forward deadline; the peers' front-ends keep theirs. Each scenario's result records its front-end with
    /// them. Defaults to none.</summary>
    public IReadOnlyDictionary<string, string> FrontEndSettings { get; init; } = Catalogue.ServiceSpec.None;

    /// <summary>Where results/&lt;timestamp&gt; goes. Defaults to the repository's results folder.</summary>
    public string? Output { get; init; }

    /// <summary>Install missing Debian packages (wrk, golang-go, fasthttp, nginx, caddy, clang) when possible. Defaults to on.</summary>
    public bool Install { get; init; } = true;

    /// <summary>Run only one scenario per way of starting (<see cref="Catalogue.StartUpSignature"/>) of each chosen set.
    /// Defaults to off.</summary>
    public bool Smoke { get; init; }

    /// <summary>What <c>--smoke</c> means, before any other flag: a check that every chosen set can start here, not a
    /// measurement. One repeat bounded by its requests, no warm-up; the tests run exactly this over every set
    /// (tests/Ingest.Lab.Tests). Its time bound is only for a service that answers slowly: on a machine busy with
    /// other work (CI runs the lab's suite beside the others) a service that has just started can take more than a
    /// second to give its first answers, and a one-second repeat then counted none.</summary>
    public static readonly LabOptions SmokeDefaults = new()
    {
        Smoke = true,
        Repeats = 1,
        Warmup = TimeSpan.Zero,
        WarmupLimit = TimeSpan.Zero,
        Duration = TimeSpan.FromSeconds(10),
        Requests = SmokeRequests,
        Training = TimeSpan.FromSeconds(3),
    };

    /// <summary>Enough requests to reach every connection of the widest smoke scenario (256) and to count a loss.</summary>
    private const int SmokeRequests = 500;

    /// <summary>Parses the flags of a <c>run</c> (without the word <c>run</c>) on the lab's command line
    /// (<see cref="Cli.RunSymbols"/>): first what the parser refuses, then what <see cref="Problems"/> finds in the
    /// options they make.</summary>
    public static (LabOptions? Options, IReadOnlyList<string> Errors) Parse(IReadOnlyList<string> args) => Cli.RunSymbols.Parse(args);

    /// <summary><paramref name="scenario"/> as this run starts it: with <see cref="FrontEndSettings"/> on a .NET front-end.</summary>
    public Catalogue.Scenario Configure(Catalogue.Scenario scenario) =>
        scenario.FrontEnd.Implementation == Catalogue.Implementation.DotNet && FrontEndSettings.Count > 0
            ? scenario with { FrontEnd = scenario.FrontEnd.With([.. FrontEndSettings.Select(s => (s.Key, s.Value))]) }
            : scenario;

    /// <summary>
    /// Where the chosen sets' plan meets the flags that were given: the one place a run's options are made. Every flag
    /// that was given wins; every one that was not takes the plan's value (<see cref="PlanFor"/>).
    /// </summary>
    public static LabOptions From(IReadOnlyList<string> sets, LabFlags given)
    {
        var plan = PlanFor(sets, given.Smoke);
        return plan with
        {
            Sets = sets,
            Smoke = given.Smoke,
            Filter = given.Filter ?? plan.Filter,
            Repeats = given.Repeats ?? plan.Repeats,
            // The memory search runs each scenario several times itself: one round, whatever the plan, unless asked.
            Rounds = given.Rounds ?? (given.FitMemory ? 1 : plan.Rounds),
            KeepServices = plan.KeepServices && !given.FitMemory,
            Warmup = given.Warmup ?? plan.Warmup,
            WarmupLimit = given.WarmupLimit ?? plan.WarmupLimit,
            Duration = given.Duration ?? plan.Duration,
            Requests = given.Requests ?? plan.Requests,
            Training = given.Training ?? plan.Training,
            Pin = given.Pin || plan.Pin,
            Wrk = given.Wrk || plan.Wrk,
            Prometheus = given.Prometheus || plan.Prometheus,
            Install = plan.Install && !given.NoInstall,
            Limits = given.Limits ?? plan.Limits,
            FitMemory = given.FitMemory || plan.FitMemory,
            FrontEndSettings = given.FrontEndSettings ?? plan.FrontEndSettings,
            Output = given.Output ?? plan.Output,
        };
    }

    /// <summary>What a run of <paramref name="sets"/> does when no flag says otherwise (<c>list</c> shows it per set): the
    /// sets' plan (<see cref="Catalogue.ScenarioCatalogue.PlanFor"/>: the headline's own, else the standard one), or
    /// <see cref="SmokeDefaults"/> with <c>--smoke</c>.</summary>
    public static LabOptions PlanFor(IReadOnlyList<string> sets, bool smoke) =>
        smoke ? SmokeDefaults : FromPlan(sets, Catalogue.ScenarioCatalogue.PlanFor(sets));

    /// <summary>A run with <paramref name="plan"/>'s rounds, repeats, durations and warm-up, for <paramref name="sets"/>.</summary>
    public static LabOptions FromPlan(IReadOnlyList<string> sets, Catalogue.RunPlan plan) => new()
    {
        Sets = sets,
        Rounds = plan.Rounds,
        Repeats = plan.Repeats,
        Duration = plan.Duration,
        Warmup = plan.Warmup,
        WarmupLimit = plan.WarmupLimit,
        KeepServices = plan.KeepServices,
        Rewarm = plan.Rewarm,
    };


    /// <summary>What is wrong with these options as a whole, each problem naming the flag to change; empty when they
    /// can run.</summary>
    public IReadOnlyList<string> Problems()
    {
        var problems = new List<string>();
        if (Rounds > 1 && FitMemory)
        {
            problems.Add("--rounds cannot be combined with --fit-memory: the memory search already runs each scenario several times, against its own first measurement.");
        }

        return problems;
    }
}
