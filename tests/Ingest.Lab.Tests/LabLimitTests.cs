using Ingest.Lab.Catalogue;
using Ingest.Lab.Results;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>
/// <c>--limit</c> on real processes: each service runs in cgroups of its own, its runtime sees the limits (the
/// start-up line's cpus and memory), the groups are removed afterwards, and a service the limit is too small for fails
/// the scenario instead of being measured.
/// </summary>
[Collection(LabProcesses.Name)]
public sealed class LabLimitTests(LabFixture lab)
{
    private static readonly ServiceLimits Roomy = new(192L * 1024 * 1024, 1);

    private static readonly LabOptions Tiny = new()
    {
        Repeats = 1,
        Warmup = TimeSpan.FromSeconds(1),
        WarmupLimit = TimeSpan.FromSeconds(1),
        Duration = TimeSpan.FromSeconds(2),
        Requests = 300,
        Install = false,
    };

    [CgroupFact]
    public async Task EachServiceRunsUnderItsLimitsAndItsRuntimeSaysSo()
    {
        var scenario = ScenarioCatalogue.InSet("smoke")[0];

        var result = await lab.Runner(Tiny with { Limits = Roomy }).RunAsync(scenario, _ => { }, CancellationToken.None);

        Assert.Equal(ScenarioStatus.Passed, result.Status);
        Assert.Equal(["back-end", "front-end"], result.Containers.Select(c => c.Service).Order(StringComparer.Ordinal));
        foreach (var container in result.Containers)
        {
            Assert.Equal("memory=192M,cpus=1", container.Limits);
            Assert.Equal(1, container.RuntimeCpus);
            Assert.InRange(container.RuntimeMemoryBytes ?? 0, 1, Roomy.MemoryBytes!.Value);
            Assert.InRange(container.GroupPeakBytes ?? 0, 1, Roomy.MemoryBytes.Value);
            Assert.Equal(0, container.OomKills);
        }

        Assert.Empty(ServiceCgroup.Remaining());
    }

    [CgroupFact]
    public async Task AServiceTheMemoryLimitIsTooSmallForFailsTheScenario()
    {
        var scenario = ScenarioCatalogue.InSet("smoke")[0];

        var result = await lab.Runner(Tiny with { Limits = new ServiceLimits(ServiceLimits.MinimumMemoryBytes, null) }).RunAsync(scenario, _ => { }, CancellationToken.None);

        Assert.Equal(ScenarioStatus.Failed, result.Status);
        Assert.Empty(result.Runs);
    }

    /// <summary>Skipped, with the reason in the test output, where the lab cannot make cgroups (not root, no cgroup v1
    /// memory and cpu controllers).</summary>
    internal sealed class CgroupFactAttribute : FactAttribute
    {
        public CgroupFactAttribute()
        {
            if (ServiceCgroup.Unavailable(Roomy) is { } reason)
            {
                Skip = reason + ".";
            }
        }
    }
}
