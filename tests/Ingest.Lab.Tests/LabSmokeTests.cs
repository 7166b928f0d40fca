using Ingest.Lab.Catalogue;
using Ingest.Lab.Results;

namespace Ingest.Lab.Tests;

/// <summary>
/// Every lab set starts on this machine: what <c>run --set all --smoke</c> does, one set per test so a failure names
/// its set. A set that cannot start on a fresh machine (a proxy configuration this Caddy refuses, a Go front-end
/// started without a flag it requires) fails here, in CI, instead of in a user's first run.
/// </summary>
[Collection(LabProcesses.Name)]
public sealed class LabSmokeTests(LabFixture lab)
{
    public static TheoryData<string> Sets => [.. ScenarioCatalogue.Sets];

    [Theory]
    [MemberData(nameof(Sets))]
    public async Task EveryWayOfStartingOfTheSetStartsServesAndLosesNothing(string set)
    {
        var options = LabOptions.SmokeDefaults with { Sets = [set], Install = false };
        var runner = lab.Runner(options);
        var problems = new List<string>();

        foreach (var scenario in StartUpSignature.OnePerSignature(ScenarioCatalogue.InSet(set)))
        {
            var result = await runner.RunAsync(scenario, _ => { }, CancellationToken.None);

            // Skipped fails too: every skip the lab knows is a program or package missing from this machine, which is
            // what a fresh machine gets wrong. The one thing here that depends on the machine rather than its packages,
            // io_uring, fails rather than skips, and the transport suite already requires it of this machine.
            // The one other skip: the Red Hat transport's package, which no machine can install (it is built from archived
            // source and handed to the build); the lab's own output says so.
            if (result.Status == ScenarioStatus.Skipped && RedHatPackage.Needs(scenario.FrontEnd) && RedHatPackage.MissingReason is not null)
            {
                continue;
            }

            if (result.Status != ScenarioStatus.Passed)
            {
                problems.Add($"{scenario.Id} {result.Status}: {result.Reason}");
            }
            else if (scenario.BackEnd is not null && scenario.Load.EventsPerRequest > 0 && result.Loss is not { Passed: true })
            {
                problems.Add($"{scenario.Id}: it forwards, but the loss check {(result.Loss is null ? "did not run" : "failed: " + result.Loss.Describe())}");
            }
        }

        Assert.True(problems.Count == 0, string.Join("\n\n", problems));
    }
}
