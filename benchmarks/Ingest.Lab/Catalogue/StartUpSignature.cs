namespace Ingest.Lab.Catalogue;

/// <summary>
/// How a scenario's processes come up: which programs (and how they are built), behind which front door, how many
/// front-end instances, with which stores, on which Kestrel transport. Two scenarios with the same signature start
/// the same way and differ only in what their programs read once they run (serializer, API style, GC mode, load),
/// so a smoke run that starts one of them has checked that the other can start too.
/// </summary>
internal sealed record StartUpSignature(string FrontEnd, string BackEnd, FrontDoor FrontDoor, int FrontEndInstances, string Stores)
{
    /// <summary>The setting that picks a .NET service's transport: each transport loads its own native pieces.</summary>
    private const string TransportKey = "Kestrel:Transport";

    public static StartUpSignature Of(Scenario scenario) => new(
        Service(scenario.FrontEnd),
        scenario.BackEnd is { } backEnd ? Service(backEnd) : "none",
        scenario.FrontDoor,
        scenario.FrontEndInstances,
        string.Join(",", scenario.Stores));

    /// <summary>What a smoke run (<c>run --smoke</c>) starts: one scenario per signature across the chosen sets (a set whose
    /// every way of starting an earlier set has already started runs nothing of its own), the first in catalogue order
    /// among those with the shortest minimum warm-up (the blocking client strategy serves nothing for seconds after it
    /// starts, and starts like its set's other scenarios); a profile-guided one trains its front-end only.</summary>
    public static IReadOnlyList<Scenario> OnePerSignature(IEnumerable<Scenario> scenarios) =>
        [.. scenarios
            .GroupBy(Of)
            .Select(g => g.OrderBy(s => s.MinimumWarmup).First())
            .Select(OneTraining)];

    // Each profile-guided service costs a training and a Native AOT compile with its profile, minutes on a small machine;
    // both are the same code for either role (the role names the project and the files), so a smoke, which checks that
    // the pipeline works, profile-guides the front-end and starts the back-end's plain Native AOT build, which its set's
    // other scenarios start anyway.
    private static Scenario OneTraining(Scenario scenario) =>
        scenario is { FrontEnd.ProfileGuided: true, BackEnd: { ProfileGuided: true } backEnd }
            ? scenario with { BackEnd = backEnd with { ProfileGuided = false } }
            : scenario;

    // A profile-guided build starts as a Native AOT build of its transport does, which that build's own signature
    // starts; what it adds is the training and a compile with the trained profile, the same for every transport, so
    // one profile-guided scenario a set checks them (each costs a training and two Native AOT compiles).
    private static string Service(ServiceSpec spec) =>
        spec.ProfileGuided
            ? spec.Implementation + " AOT PGO"
            : spec.Implementation + (spec.NativeAot ? " AOT" : spec.Trimmed ? " trimmed" : "")
              + (spec.Settings.TryGetValue(TransportKey, out var transport) ? " " + transport : "");
}
