using Ingest.Lab;
using Ingest.Lab.Faults;
using Ingest.Lab.Processes;

namespace Ingest.EndToEnd.Tests;

/// <summary>
/// The faults' network is made only over nothing and taken down entirely: the command refuses, before it makes or
/// publishes anything, a namespace of its name it did not make (and leaves it be), and a network it made goes with
/// every namespace, link and rule, even with a fault on.
/// </summary>
public sealed class FaultNetworkTests
{
    [FaultTests.NamespacesFact]
    public async Task TheFaultsRefuseANamespaceTheyDidNotMakeAndLeaveItInPlace()
    {
        NetworkTools.Run("ip", ["netns", "add", FaultNetwork.BackEndNamespace]);
        try
        {
            using var output = new StringWriter();
            using var error = new StringWriter();

            var exit = await new FaultsCommand(RepositoryLayout.Find(), output, error).RunAsync(new FaultsOptions(), "faults", CancellationToken.None);

            Assert.Equal(1, exit);
            Assert.Contains($"network namespace {FaultNetwork.BackEndNamespace} exists already", error.ToString(), StringComparison.Ordinal);
            Assert.Equal("", output.ToString());
            Assert.Contains(FaultNetwork.BackEndNamespace, Namespaces());
            Assert.DoesNotContain(FaultNetwork.FrontEndNamespace, Namespaces());
        }
        finally
        {
            NetworkTools.Run("ip", ["netns", "del", FaultNetwork.BackEndNamespace]);
        }
    }

    [FaultTests.NamespacesFact]
    public async Task ANetworkTheFaultsMadeGoesWithEveryNamespaceLinkAndRule()
    {
        await using (var network = FaultNetwork.Create())
        {
            network.Apply(Fault.For(TimeSpan.FromSeconds(1), 256).Single(f => f.Kind == FaultKind.Partition), backEndPort: 5001);
            Assert.Contains(FaultNetwork.FrontEndNamespace, Namespaces());
            Assert.Contains("ingest_faults", NetworkTools.Run("ip", ["netns", "exec", FaultNetwork.BackEndNamespace, "nft", "list", "tables"]), StringComparison.Ordinal);
        }

        Assert.DoesNotContain(FaultNetwork.FrontEndNamespace, Namespaces());
        Assert.DoesNotContain(FaultNetwork.BackEndNamespace, Namespaces());
        Assert.Equal("", NetworkTools.Run("ip", ["-4", "-o", "addr", "show", "to", "198.18.8.0/21"]).Trim());
        Assert.Null(FaultNetwork.Refusal());
    }

    private static string[] Namespaces() => [.. NetworkTools.Run("ip", ["netns", "list"]).Split('\n').Select(l => l.Split(' ')[0])];
}
