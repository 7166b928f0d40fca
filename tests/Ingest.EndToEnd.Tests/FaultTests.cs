using Ingest.Lab;
using Ingest.Lab.Faults;
using Xunit.Abstractions;

namespace Ingest.EndToEnd.Tests;

/// <summary>
/// Network faults between the front-end and the back-end, one test each, on the published services in network
/// namespaces (the lab's <c>faults</c> command's network and checks, <see cref="FaultBench"/>): under a steady load,
/// nothing acknowledged is lost, nothing is persisted twice, only 502, 503 and 504 are answered, the front-end's memory
/// stays bounded, the circuit opens when every forward fails and closes in time, and service is back to normal within
/// the stated time of the fault's end.
/// </summary>
public sealed class FaultTests(FaultBenchFixture fixture, ITestOutputHelper output) : IClassFixture<FaultBenchFixture>
{
    public static TheoryData<string> Faults => [.. Fault.For(FaultBenchFixture.Options.FaultDuration, FaultBenchFixture.Options.BandwidthKilobits).Select(f => f.Name)];

    [NamespacesTheory]
    [MemberData(nameof(Faults))]
    public async Task TheServicesSurviveTheFaultAsPromised(string name)
    {
        var fault = Fault.For(FaultBenchFixture.Options.FaultDuration, FaultBenchFixture.Options.BandwidthKilobits).Single(f => f.Name == name);

        var outcome = await fixture.Bench.RunAsync(fault, CancellationToken.None);

        output.WriteLine(FaultsCommand.Table([outcome]));
        Assert.True(outcome.WirePackets > 0, "the forwards crossed the wire");
        Assert.True(outcome.Passed, string.Join("; ", outcome.Problems));
    }

    /// <summary>Skipped, with the reason in the test output, where the machine cannot make the faults' network: not Linux
    /// or not root, iproute2, nftables or the TUN driver missing, or <c>ip netns add</c> refused.</summary>
    internal sealed class NamespacesTheoryAttribute : TheoryAttribute
    {
        public NamespacesTheoryAttribute() => Skip = FaultNetwork.MachineRefusal();
    }

    /// <summary>As <see cref="NamespacesTheoryAttribute"/>, for a fact.</summary>
    internal sealed class NamespacesFactAttribute : FactAttribute
    {
        public NamespacesFactAttribute() => Skip = FaultNetwork.MachineRefusal();
    }
}
