using System.Globalization;

namespace Ingest.Lab;

/// <summary>What a <c>run</c> was asked to do. Parsed from the command line; every problem names its flag.</summary>
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

    /// <summary>Where results/&lt;timestamp&gt; goes. Defaults to the repository's results folder.</summary>
    public string? Output { get; init; }

    /// <summary>Install missing Debian packages (wrk, golang-go, fasthttp, nginx, caddy, clang) when possible. Defaults to on.</summary>
    public bool Install { get; init; } = true;

    /// <summary>Run only one scenario per way of starting (<see cref="Catalogue.StartUpSignature"/>) of each chosen set.
    /// Defaults to off.</summary>
    public bool Smoke { get; init; }

    /// <summary>What <c>--smoke</c> means, before any other flag: a check that every chosen set can start here, not a
    /// measurement. One repeat of a second, no warm-up, and a request bound so that a fast service does not spend the
    /// second either; the tests run exactly this over every set (tests/Ingest.Lab.Tests).</summary>
    public static readonly LabOptions SmokeDefaults = new()
    {
        Smoke = true,
        Repeats = 1,
        Warmup = TimeSpan.Zero,
        WarmupLimit = TimeSpan.Zero,
        Duration = TimeSpan.FromSeconds(1),
        Requests = SmokeRequests,
        Training = TimeSpan.FromSeconds(3),
    };

    /// <summary>Enough requests to reach every connection of the widest smoke scenario (256) and to count a loss.</summary>
    private const int SmokeRequests = 500;

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

    public static (LabOptions? Options, IReadOnlyList<string> Errors) Parse(IReadOnlyList<string> args)
    {
        var errors = new List<string>();
        // --smoke sets the defaults the other flags start from, wherever it stands: `--duration 2 --smoke` keeps 2 s.
        // The chosen sets' plan is where the other flags start from (the headline set has its own).
        var at = Math.Max(IndexOf(args, "--set"), IndexOf(args, "--sets"));
        IReadOnlyList<string> chosen = at >= 0 && at + 1 < args.Count ? args[at + 1].Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) : [Catalogue.ScenarioCatalogue.DefaultSet];
        var options = args.Contains("--smoke") ? SmokeDefaults : FromPlan(chosen, Catalogue.ScenarioCatalogue.PlanFor(chosen));
        for (var i = 0; i < args.Count; i++)
        {
            string Value()
            {
                if (i + 1 < args.Count)
                {
                    return args[++i];
                }

                errors.Add($"{args[i]} needs a value.");
                return "";
            }

            switch (args[i])
            {
                case "--set":
                case "--sets":
                    var sets = Value().Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
                    options = options with { Sets = sets.Contains(Catalogue.ScenarioCatalogue.AllSets) ? Catalogue.ScenarioCatalogue.Sets : sets };
                    break;
                case "--smoke":
                    break; // applied before the loop
                case "--filter":
                    options = options with { Filter = Value() };
                    break;
                case "--repeat":
                case "--repeats":
                    options = options with { Repeats = PositiveInt(args[i], Value(), errors) };
                    break;
                case "--rounds":
                    options = options with { Rounds = PositiveInt(args[i], Value(), errors) };
                    break;
                case "--warmup":
                    options = options with { Warmup = Seconds(args[i], Value(), errors, allowZero: true) };
                    break;
                case "--warmup-limit":
                    options = options with { WarmupLimit = Seconds(args[i], Value(), errors, allowZero: true) };
                    break;
                case "--duration":
                    options = options with { Duration = Seconds(args[i], Value(), errors, allowZero: false) };
                    break;
                case "--training":
                    options = options with { Training = Seconds(args[i], Value(), errors, allowZero: false) };
                    break;
                case "--requests":
                    options = options with { Requests = PositiveInt(args[i], Value(), errors) };
                    break;
                case "--pin":
                    options = options with { Pin = true };
                    break;
                case "--wrk":
                    options = options with { Wrk = true };
                    break;
                case "--prometheus":
                    options = options with { Prometheus = true };
                    break;
                case "--no-install":
                    options = options with { Install = false };
                    break;
                case "--limit":
                    var limits = Running.ServiceLimits.Parse(Value(), out var limitError);
                    if (limits is null)
                    {
                        errors.Add(limitError!);
                    }
                    else
                    {
                        options = options with { Limits = limits };
                    }

                    break;
                case "--fit-memory":
                    options = options with { FitMemory = true };
                    break;
                case "--output":
                    options = options with { Output = Value() };
                    break;
                default:
                    errors.Add($"Unknown option '{args[i]}'.");
                    break;
            }
        }

        if (options.FitMemory && !args.Contains("--rounds"))
        {
            // The memory search runs each scenario several times itself: one round, whatever the set's plan.
            options = options with { Rounds = 1, KeepServices = false };
        }

        if (options.Rounds > 1 && options.FitMemory)
        {
            errors.Add("--rounds cannot be combined with --fit-memory: the memory search already runs each scenario several times, against its own first measurement.");
        }

        foreach (var set in options.Sets)
        {
            if (!Catalogue.ScenarioCatalogue.Sets.Contains(set))
            {
                errors.Add($"--set: unknown scenario set '{set}'. Known sets: {string.Join(", ", Catalogue.ScenarioCatalogue.Sets)}, or {Catalogue.ScenarioCatalogue.AllSets} (see 'list').");
            }
        }

        return (errors.Count == 0 ? options : null, errors);
    }

    private static int IndexOf(IReadOnlyList<string> args, string flag)
    {
        for (var i = args.Count - 1; i >= 0; i--)
        {
            if (args[i] == flag)
            {
                return i;
            }
        }

        return -1;
    }

    private static int PositiveInt(string flag, string text, List<string> errors)
    {
        if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value > 0)
        {
            return value;
        }

        errors.Add($"{flag} expects a whole number above 0; got '{text}'.");
        return 1;
    }

    private static TimeSpan Seconds(string flag, string text, List<string> errors, bool allowZero)
    {
        var number = text.EndsWith('s') ? text[..^1] : text;
        if (double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds) && (seconds > 0 || (allowZero && seconds == 0)) && seconds <= 3600)
        {
            return TimeSpan.FromSeconds(seconds);
        }

        errors.Add($"{flag} expects seconds{(allowZero ? " (0 or more)" : " above 0")}, at most 3600, e.g. 5 or 5s; got '{text}'.");
        return TimeSpan.FromSeconds(1);
    }
}
