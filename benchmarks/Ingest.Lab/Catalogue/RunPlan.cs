namespace Ingest.Lab.Catalogue;

/// <summary>
/// How a set is run when the command line does not say: rounds over the whole list, measured repeats of
/// <paramref name="Duration"/> each, the warm-up (a first phase, then slices while the rate still rises, up to a limit),
/// and whether the services stay up between rounds. When they do, a later round warms a scenario again for
/// <paramref name="Rewarm"/> (or its own minimum) before measuring: its connections and threads, not its JIT.
/// </summary>
internal sealed record RunPlan(int Rounds, int Repeats, TimeSpan Duration, TimeSpan Warmup, TimeSpan WarmupLimit, bool KeepServices, TimeSpan Rewarm);
