using Ingest.Lab.Catalogue;
using Ingest.Lab.Results;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>
/// Every lab set starts on this machine: what <c>run --set all --smoke</c> does — every way of starting once, in the
/// first set that has it — one set per test so a failure names its set. A set that cannot start on a fresh machine (a
/// proxy configuration this Caddy refuses, a Go front-end started without a flag it requires) fails here, in CI,
/// instead of in a user's first run.
/// </summary>
[Collection(LabProcesses.Name)]
public sealed class LabSmokeTests(LabFixture lab)
{
    /// <summary>What the smoke of every set starts: each way of starting once, in the first set that has it.</summary>
    private static readonly IReadOnlyList<Scenario> Smoke = StartUpSignature.OnePerSignature(ScenarioCatalogue.All);

    /// <summary>Every set that is first to have a way of starting (the others start only as earlier sets do: LabUnitTests
    /// checks the smoke covers every signature), but <c>aot</c>, <c>templates</c> and <c>redhat</c>, which have facts of their
    /// own below, and <c>storage</c>:
    /// LabScenarioTests.TheStorageSetRunsEverySinkAgainstRealStoresAndRemovesThemAfterwards runs each of its scenarios (a
    /// superset of one per way of starting) with the same checks and more, and starting its real stores twice would cost
    /// CI a minute for nothing.</summary>
    public static TheoryData<string> Sets => [.. TheorySets];

    private static IEnumerable<string> TheorySets =>
        ScenarioCatalogue.Sets.Where(set => set is not StorageSet and not AotSet and not TemplatesSet and not RedHatSet && Smoke.Any(s => s.Set == set));

    internal const string StorageSet = "storage";

    private const string AotSet = "aot";

    /// <summary>The other set that starts a Native AOT build (its Razor Slices front-end).</summary>
    private const string TemplatesSet = "templates";

    /// <summary>The set whose own ways of starting are the Red Hat transport's only (its others start as the transports
    /// set's do): it needs the package, which no machine can install (it is built from archived source and handed to the
    /// build), so without it the test is skipped with the reason rather than run with nothing to start.</summary>
    private const string RedHatSet = "redhat";

    /// <summary>The <c>aot</c> set's smoke, with the other tests that compile Native AOT and trimmed builds (its trait).</summary>
    [Fact]
    [Trait(LabProcesses.Builds, LabProcesses.Native)]
    public Task EveryWayOfStartingOfTheAotSetStartsServesAndLosesNothing() => EveryWayOfStartingOfTheSetStartsServesAndLosesNothing(AotSet);

    /// <summary>With the Native AOT builds too: in the suite's other job it would wait for the compile the aot set's
    /// tests hold the repository's publish lock for, and leave its core idle meanwhile.</summary>
    [Fact]
    [Trait(LabProcesses.Builds, LabProcesses.Native)]
    public Task EveryWayOfStartingOfTheTemplatesSetStartsServesAndLosesNothing() => EveryWayOfStartingOfTheSetStartsServesAndLosesNothing(TemplatesSet);

    /// <summary>The sets of the theory start no Native AOT or trimmed build, so the tests without the trait never wait
    /// for one (tests/test.sh runs the two kinds side by side).</summary>
    [Fact]
    public void OnlyTheTestsWithTheTraitStartANativeAotOrTrimmedBuild() =>
        Assert.All(TheorySets.SelectMany(set => Smoke.Where(s => s.Set == set)),
            s => Assert.False(new[] { s.FrontEnd }.Concat(s.BackEnd is { } b ? [b] : []).Any(spec => spec.NativeAot || spec.Trimmed), s.Id));

    [RedHatPackageFact]
    public Task EveryWayOfStartingOfTheRedHatSetStartsServesAndLosesNothing() => EveryWayOfStartingOfTheSetStartsServesAndLosesNothing(RedHatSet);

    [Theory]
    [MemberData(nameof(Sets))]
    public async Task EveryWayOfStartingOfTheSetStartsServesAndLosesNothing(string set)
    {
        var options = LabOptions.SmokeDefaults with { Sets = [set], Install = false };
        var runner = lab.Runner(options);
        var problems = new List<string>();

        var scenarios = Smoke.Where(s => s.Set == set).ToList();
        Assert.NotEmpty(scenarios);
        foreach (var scenario in scenarios)
        {
            var result = await runner.RunAsync(scenario, _ => { }, CancellationToken.None);

            // Skipped fails too: every skip the lab knows is a program or package missing from this machine, which is
            // what a fresh machine gets wrong. The one thing here that depends on the machine rather than its packages,
            // io_uring, fails rather than skips, and the transport suite already requires it of this machine.
            if (result.Status != ScenarioStatus.Passed)
            {
                problems.Add($"{scenario.Id} {result.Status}: {result.Reason}");
            }
            else if (scenario.BackEnd is { Counts: true } && scenario.Load.EventsPerRequest > 0 && result.Loss is not { Passed: true })
            {
                problems.Add($"{scenario.Id}: it forwards, but the loss check {(result.Loss is null ? "did not run" : "failed: " + result.Loss.Describe())}");
            }
            else if (ProfileTraining.Needs(scenario))
            {
                problems.AddRange(UntrainedServices(scenario));
            }

            if (result.Status == ScenarioStatus.Passed)
            {
                problems.AddRange(CollectorFiguresAmiss(scenario, result));
            }
        }

        Assert.True(problems.Count == 0, string.Join("\n\n", problems));
    }

    // Every .NET service's runtime counters were read around every measured repeat (it allocated something, and paused
    // for less than the whole repeat); a Go service has no such figures rather than made-up ones.
    private static IEnumerable<string> CollectorFiguresAmiss(Scenario scenario, ScenarioResult result)
    {
        foreach (var run in result.Runs)
        {
            foreach (var (name, usage) in run.Processes)
            {
                var dotNet = name.StartsWith("front-end", StringComparison.Ordinal) ? scenario.FrontEnd.Implementation == Implementation.DotNet
                    : name == "back-end" ? scenario.BackEnd?.Implementation == Implementation.DotNet
                    : (bool?)null;
                if (dotNet == true && usage.Gc is not { AllocatedBytesPerRequest: > 0, PauseShare: >= 0 and < 1 })
                {
                    yield return $"{scenario.Id}: the {name}'s GC figures are missing or out of range: {usage.Gc}";
                }
                else if (dotNet != true && usage.Gc is not null)
                {
                    yield return $"{scenario.Id}: {name} is not a .NET service but has GC figures: {usage.Gc}";
                }
            }
        }
    }

    // A profile-guided service that started is not proof that its profile reached the compiler: the compiler's response
    // file, as the publish just before the scenario wrote it, must name the .mibc its training made and the order its
    // code trace made (a file of function names, not empty).
    private IEnumerable<string> UntrainedServices(Scenario scenario)
    {
        foreach (var (spec, project, role) in new[] { (scenario.FrontEnd, "Ingest.FrontEnd", "front-end"), (scenario.BackEnd, "Ingest.BackEnd", "back-end") })
        {
            if (spec is not { ProfileGuided: true })
            {
                continue;
            }

            var responseFile = Path.Combine(lab.Publisher.NativeAotIntermediateFolder(project, "linux-x64"), "native", project + ".ilc.rsp");
            var arguments = File.ReadAllLines(responseFile);
            if (Given(arguments, "--mibc:", $"{scenario.Name}.{role}.mibc") is not [{ Exists: true, Length: > 0 }])
            {
                yield return $"{scenario.Id}: the {role}'s Native AOT compile was not given its trained profile ({responseFile})";
            }

            if (Given(arguments, "--order:", $"{scenario.Name}.{role}.order") is not [{ Exists: true, Length: > 0 }] || !arguments.Contains("--method-layout:explicit"))
            {
                yield return $"{scenario.Id}: the {role}'s Native AOT compile was not given the layout its code trace made ({responseFile})";
            }
        }
    }

    private static List<FileInfo> Given(string[] arguments, string option, string fileName) =>
        arguments.Where(line => line.StartsWith(option, StringComparison.Ordinal) && line.EndsWith(fileName, StringComparison.Ordinal))
            .Select(line => new FileInfo(line[option.Length..]))
            .ToList();

    /// <summary>A fact skipped, with the reason, when the lab is not given the Red Hat transport's package.</summary>
    internal sealed class RedHatPackageFactAttribute : FactAttribute
    {
        public RedHatPackageFactAttribute() => Skip = RedHatPackage.MissingReason;
    }
}
