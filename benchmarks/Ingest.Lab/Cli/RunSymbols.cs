using System.CommandLine;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Running;
using static Ingest.Lab.Cli.OptionKinds;

namespace Ingest.Lab.Cli;

/// <summary>
/// The options of <c>run</c>, which are also the root's (the lab runs when no command is given), and their binding:
/// the flags as given (<see cref="LabFlags"/>) meet the chosen sets' plan in <see cref="LabOptions.From"/>. The help
/// shows the defaults from that same plan (<see cref="LabOptions.PlanFor"/>), so it cannot drift from them.
/// </summary>
internal sealed class RunSymbols
{
    private const string SetPlan = "the set's plan (see 'list')";

    private static readonly LabOptions Plan = LabOptions.PlanFor([ScenarioCatalogue.DefaultSet], smoke: false);
    private static readonly LabOptions Smoke = LabOptions.PlanFor([ScenarioCatalogue.DefaultSet], smoke: true);
    private static readonly LabOptions Standard = LabOptions.PlanFor(["classic"], smoke: false);

    public Option<IReadOnlyList<string>> Sets { get; } = new("--set", "--sets")
    {
        Description = WithDefault($"The scenario sets, comma-separated, or '{ScenarioCatalogue.AllSets}' for every set (see 'list').", ScenarioCatalogue.DefaultSet),
        HelpName = "sets",
        Arity = ArgumentArity.ExactlyOne,
        CustomParser = result =>
        {
            var sets = Value(result).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            if (sets.Contains(ScenarioCatalogue.AllSets))
            {
                return ScenarioCatalogue.Sets;
            }

            var unknown = sets.Where(set => !ScenarioCatalogue.Sets.Contains(set)).Select(set => $"'{set}'").ToList();
            return unknown.Count == 0 ? sets : Reject<IReadOnlyList<string>>(result,
                $"--set: unknown scenario set{(unknown.Count > 1 ? "s" : "")} {string.Join(", ", unknown)}. Known sets: {string.Join(", ", ScenarioCatalogue.Sets)}, or {ScenarioCatalogue.AllSets} (see 'list').");
        },
    };

    public Option<string> Filter { get; } = new("--filter")
    {
        Description = WithDefault("Only scenarios whose name contains this (case-insensitive), or one of several separated by commas.", "every scenario of the sets"),
        HelpName = "text",
    };

    public Option<int?> Repeats { get; } = PositiveIntOption("--repeat",
        WithDefault("Measured repeats per scenario; the median and spread come from them.", SetDefault(o => Invariant(o.Repeats))), "--repeats");

    public Option<int?> Rounds { get; } = PositiveIntOption("--rounds",
        WithDefault("Rounds over the whole list of scenarios, interleaved (each starts every scenario afresh, or, in the headline's plan, comes back to services kept up), " +
            "so a drift of the machine's speed is spread over every scenario. Not with --fit-memory.", SetDefault(o => Invariant(o.Rounds))));

    public Option<TimeSpan?> Warmup { get; } = SecondsOption("--warmup",
        WithDefault("The first, unreported warm-up phase; the warm-up goes on in 2 s slices while the services still get faster, " +
            "up to --warmup-limit.", SetDefault(o => Seconds(o.Warmup))), allowZero: true);

    public Option<TimeSpan?> WarmupLimit { get; } = SecondsOption("--warmup-limit",
        WithDefault("The longest warm-up; equal to --warmup for a fixed one.", SetDefault(o => Seconds(o.WarmupLimit))), allowZero: true);

    public Option<TimeSpan?> Duration { get; } = SecondsOption("--duration",
        WithDefault("Each measured repeat.", SetDefault(o => Seconds(o.Duration))), allowZero: false);

    public Option<int?> Requests { get; } = PositiveIntOption("--requests",
        WithDefault("Most requests in each phase (the warm-up and every repeat).", SmokeDefault(o => o.Requests is { } n ? Invariant(n) : "none, bounded by --duration only")));

    public Option<TimeSpan?> Training { get; } = SecondsOption("--training",
        WithDefault("How long a profile-guided Native AOT scenario's JIT twin trains, once per run.", SmokeDefault(o => Seconds(o.Training))), allowZero: false);

    public Option<bool> Pin { get; } = Switch("--pin", "Pin the load generator to CPU 0 and the services to the others (taskset).");

    public Option<bool> Wrk { get; } = Switch("--wrk", "Also drive every scenario with wrk, for a cross-check in the report.");

    public Option<bool> Prometheus { get; } = Switch("--prometheus",
        "Start Debian's Prometheus for every scenario, scraping the .NET services' /metrics, and report its view beside the load generator's.");

    public Option<bool> NoInstall { get; } = Switch("--no-install",
        "Do not install missing Debian packages (wrk, golang-go, fasthttp, nginx, caddy, clang); without it they are installed when possible.");

    public Option<ServiceLimits> Limit { get; } = new("--limit")
    {
        Description = WithDefault("A memory limit and CPU quota for every front-end and back-end process, each in a cgroup of its own as a " +
            "container runtime would run it.", "none"),
        HelpName = "memory=128M,cpus=1",
        CustomParser = result => ServiceLimits.Parse(Value(result), out var error) ?? Reject<ServiceLimits>(result, error!),
    };

    public Option<bool> FitMemory { get; } = Switch("--fit-memory",
        "After each scenario, search the smallest memory limit at which it keeps 0.95x its throughput.");

    public Option<IReadOnlyDictionary<string, string>> FrontEnd { get; } = SettingsOption("--front-end", "run",
        "A setting on top of the scenario's for every .NET front-end of the run (the peers' are left as they are), recorded with the scenario:",
        "Forwarding:TimeoutMilliseconds=30000");

    public Option<string> Output { get; } = new("--output")
    {
        Description = WithDefault("Where results/<timestamp> goes.", "the repository's results folder"),
        HelpName = "folder",
    };

    public Option<bool> SmokeRun { get; } = Switch("--smoke",
        "One scenario per way of starting of each chosen set, 500 requests each (10 s at most): a check that the sets start here, not a measurement. " +
        "Its defaults are where the other options start from, wherever it stands.");

    private IEnumerable<Option> All =>
        [Sets, Filter, Repeats, Rounds, Warmup, WarmupLimit, Duration, Requests, Training, Pin, Wrk, Prometheus, NoInstall, Limit, FitMemory, FrontEnd, Output, SmokeRun];

    /// <summary>Parses the flags of a <c>run</c> alone, without the word <c>run</c>.</summary>
    public static (LabOptions? Options, IReadOnlyList<string> Errors) Parse(IReadOnlyList<string> args)
    {
        var symbols = new RunSymbols();
        return symbols.Bind(symbols.AddTo(new Command("run")).Parse(args, LabCommandLine.Parser));
    }

    public Command AddTo(Command command)
    {
        foreach (var option in All)
        {
            command.Options.Add(option);
        }

        return command;
    }

    /// <summary>The run's options, or what is wrong: the parser's errors, else the <see cref="LabOptions.Problems"/> of
    /// the options the flags make.</summary>
    public (LabOptions? Options, IReadOnlyList<string> Errors) Bind(ParseResult result) =>
        LabCommandLine.Bind(result, r => LabOptions.From(r.GetValue(Sets) ?? [ScenarioCatalogue.DefaultSet], new LabFlags
        {
            Smoke = r.GetValue(SmokeRun),
            Filter = r.GetValue(Filter),
            Repeats = r.GetValue(Repeats),
            Rounds = r.GetValue(Rounds),
            Warmup = r.GetValue(Warmup),
            WarmupLimit = r.GetValue(WarmupLimit),
            Duration = r.GetValue(Duration),
            Requests = r.GetValue(Requests),
            Training = r.GetValue(Training),
            Pin = r.GetValue(Pin),
            Wrk = r.GetValue(Wrk),
            Prometheus = r.GetValue(Prometheus),
            NoInstall = r.GetValue(NoInstall),
            Limits = r.GetValue(Limit),
            FitMemory = r.GetValue(FitMemory),
            FrontEndSettings = r.GetValue(FrontEnd),
            Output = r.GetValue(Output),
        }), options => options.Problems());

    /// <summary>A default that the set's plan gives (<see cref="LabOptions.PlanFor"/>), as it is today for the default set.</summary>
    private static string SetDefault(Func<LabOptions, string> value) =>
        $"{SetPlan}: {value(Plan)} for {ScenarioCatalogue.DefaultSet}, {value(Standard)} for the others; {value(Smoke)} with --smoke";

    private static string SmokeDefault(Func<LabOptions, string> value) => $"{value(Plan)}; {value(Smoke)} with --smoke";
}
