namespace Ingest.Lab.Catalogue;

/// <summary>
/// Every scenario the lab knows, grouped in named sets. The one catalogue: the lab runs from it, and the Crank
/// configuration is generated from it. The scenarios are data, <c>catalogue.yml</c> (the sets' order, the presets) and
/// one file a set in <c>Sets/</c>, embedded in the lab and read by <see cref="CatalogueReader"/>; how a set is run by
/// default is code, here.
/// </summary>
internal static class ScenarioCatalogue
{
    /// <summary>The set the main command runs: the README's headline.</summary>
    public const string DefaultSet = HeadlineSet;

    public const string HeadlineSet = "headline";

    /// <summary>The head-to-head with the original Red Hat transport (<see cref="RedHatHeadToHead"/>).</summary>
    public const string RedHatSet = "redhat";

    /// <summary>What <c>--set</c> takes for every set.</summary>
    public const string AllSets = "all";

    /// <summary>
    /// How the headline set is run unless the command line says otherwise: interleaved rounds over services that stay
    /// up between them, so a JIT service is warmed once, and every round's measurement of a scenario sits within a
    /// minute or two of every other scenario's (docs/lab.md#the-headline). Sized to finish within a quarter of an hour on a
    /// 2-core machine, publishes included.
    /// </summary>
    public static readonly RunPlan HeadlinePlan = new(Rounds: 3, Repeats: 2, Duration: TimeSpan.FromSeconds(3),
        Warmup: TimeSpan.FromSeconds(3), WarmupLimit: TimeSpan.FromSeconds(20), KeepServices: true, Rewarm: TimeSpan.FromSeconds(2));

    /// <summary>What a run of any other set does by default: one round, every scenario started afresh.</summary>
    public static readonly RunPlan StandardPlan = new(Rounds: 1, Repeats: 3, Duration: TimeSpan.FromSeconds(3),
        Warmup: TimeSpan.FromSeconds(2), WarmupLimit: TimeSpan.FromSeconds(30), KeepServices: false, Rewarm: TimeSpan.Zero);

    private static readonly Lazy<CatalogueReader.Catalogue> Data = new(CatalogueReader.Read);

    /// <summary>The plan of a run over <paramref name="sets"/>: the headline's when that is the only set.</summary>
    public static RunPlan PlanFor(IReadOnlyList<string> sets) => sets is [HeadlineSet] ? HeadlinePlan : StandardPlan;

    public static IReadOnlyList<Scenario> All => Data.Value.Scenarios;

    /// <summary>The sets in catalogue.yml's order.</summary>
    public static IReadOnlyList<string> Sets => Data.Value.Sets;

    public static IReadOnlyList<Scenario> InSet(string set) => [.. All.Where(s => s.Set == set)];

    /// <summary>
    /// The pairs that matter, per set, each at every connection count both scenarios have: the verdicts the console ends
    /// with and summary.md and report.html open with (<see cref="Results.Verdicts"/>).
    /// </summary>
    public static IReadOnlyList<Comparison> ComparisonsIn(string set) =>
        [.. Data.Value.Comparisons(set).Where(c => All.Any(s => s.Set == set && s.Name == c.Subject) && All.Any(s => s.Set == set && s.Name == c.Baseline))];

    /// <summary>The Kestrel transports the transports set measures side by side (catalogue.yml's <c>Transports</c>).</summary>
    public static TransportVariant[] Transports => Data.Value.TransportList("Transports");

    /// <summary>
    /// The head-to-head with the original Red Hat transport (issue 20, catalogue.yml's <c>RedHatHeadToHead</c>). RedHatLinux
    /// needs its package: the lab skips that variant, saying so, when it is not given (<see cref="RedHatPackage"/>).
    /// </summary>
    public static TransportVariant[] RedHatHeadToHead => Data.Value.TransportList("RedHatHeadToHead");

    /// <summary>The lean profile's environment (catalogue.yml's <c>Lean</c> preset, docs/configuration.md#lean-profile).</summary>
    public static (string Key, string Value)[] Lean => Data.Value.Preset("Lean").Environment;
}
