using Ingest.Lab;
using Ingest.Lab.Faults;
using Ingest.Lab.Processes;
using Ingest.Lab.Running;

namespace Ingest.EndToEnd.Tests;

/// <summary>
/// One <see cref="FaultBench"/> for every fault test: the network made, the services started and warmed once, each test
/// then runs its fault on them (a fault is lifted before the next starts, and each run's events carry job ids of their
/// own, so sharing is safe). The faults are shorter than the command's and the breaker quicker, so the whole suite stays
/// within a few minutes; the checks are the command's. Disposing it stops the services and removes the network. On a
/// machine that cannot make network namespaces it makes nothing, and the tests are skipped with the reason.
/// </summary>
public sealed class FaultBenchFixture : IAsyncLifetime
{
    /// <summary>The test's faults: 3 s each (the partition 10 s), 1 s of load before, a breaker of 1 s attempts, a 2 s
    /// sampling window and 2 s breaks within a 2.5 s forward: a fault that fails every forward opens the circuit within
    /// 3.5 s, and service is back to normal within 5 s of a fault's end.</summary>
    internal static readonly FaultsOptions Options = new()
    {
        FaultDuration = TimeSpan.FromSeconds(3),
        Before = TimeSpan.FromSeconds(1),
        FrontEndSettings = new Dictionary<string, string>
        {
            ["Forwarding:TimeoutMilliseconds"] = "2500",
            ["Forwarding:AttemptTimeoutMilliseconds"] = "1000",
            ["Forwarding:BreakerBreakSeconds"] = "2",
            ["Forwarding:BreakerSamplingSeconds"] = "2",
        },
    };

    private readonly string _work = Directory.CreateTempSubdirectory("ingest-faults-").FullName;
    private FaultBench? _bench;

    internal FaultBench Bench => _bench ?? throw new InvalidOperationException("The fault bench did not start.");

    public async Task InitializeAsync()
    {
        if (FaultNetwork.MachineRefusal() is not null)
        {
            return; // the tests skip themselves, saying why
        }

        var layout = RepositoryLayout.Find();
        var artifacts = new Artifacts(layout, new Publisher(layout, TextWriter.Null), TextWriter.Null, checksOnly: true);
        _bench = await FaultBench.StartAsync(artifacts, Options, _work, TextWriter.Null, CancellationToken.None);
    }

    public async Task DisposeAsync()
    {
        if (_bench is not null)
        {
            await _bench.DisposeAsync();
        }

        Directory.Delete(_work, recursive: true);
    }
}
