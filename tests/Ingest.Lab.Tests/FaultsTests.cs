using System.Diagnostics;
using Ingest.Lab.Faults;
using Ingest.LoadGen;

namespace Ingest.Lab.Tests;

/// <summary>The faults command's readings and judgement, on made-up inputs: when service was back, what the circuit did,
/// what the store holds twice, the wire's delays and the table. The faults themselves run in
/// Ingest.EndToEnd.Tests/FaultTests (root, network namespaces).</summary>
public sealed class FaultsTests
{
    [Fact]
    public void ServiceIsBackFromTheFirstSecondAfterWhichEveryAnswerWasA2xx()
    {
        static TimelineSample Second(int second, long requests, long errors = 0, long bad = 0) => new(second, requests, errors, 0, bad);

        Assert.Equal(0, FaultBench.FirstCleanSecond([Second(0, 200), Second(1, 200), Second(2, 200)]));
        Assert.Equal(3, FaultBench.FirstCleanSecond([Second(0, 200), Second(1, 150, bad: 50), Second(2, 0), Second(3, 200), Second(4, 200)]));
        Assert.Equal(2, FaultBench.FirstCleanSecond([Second(0, 200), Second(1, 190, errors: 10), Second(2, 200), Second(3, 0)])); // the last second may be cut short
        Assert.Null(FaultBench.FirstCleanSecond([Second(0, 200), Second(1, 200, bad: 1)]));
        Assert.Equal(2, FaultBench.FirstCleanSecond([Second(0, 200), Second(1, 0), Second(2, 200)])); // a second without answers is no recovery
    }

    [Fact]
    public void TheCircuitRefusedFromTheFirstReadingThatRoseToTheLast()
    {
        static string Page(int refused) => $$"""
            # TYPE ingest_forwards_total counter
            ingest_forwards_total{outcome="ok"} 5000
            ingest_forwards_total{outcome="backend-unavailable"} {{refused}}
            ingest_forwards_total{outcome="backend-timeout"} 12
            """;
        var start = DateTimeOffset.UnixEpoch;
        var watch = new CircuitWatch();

        Assert.Equal(0, CircuitWatch.Refusals("ingest_forwards_total{outcome=\"ok\"} 5\n"));
        foreach (var (second, refused) in new[] { (0, 0), (1, 0), (2, 40), (3, 90), (4, 90), (5, 120), (6, 120) })
        {
            watch.Record(start.AddSeconds(second), Page(refused));
        }

        watch.Record(start.AddSeconds(7), null); // a scrape that did not come
        Assert.Equal((start.AddSeconds(2), start.AddSeconds(5)), watch.Refusals());
        Assert.Equal((null, null), new CircuitWatch().Refusals());
    }

    [Fact]
    public void TheStoreCountsEachJobIdOnceAndEveryLineBeyond()
    {
        var store = Directory.CreateTempSubdirectory("ingest-faults-store-").FullName;
        try
        {
            static string Line(string id) => $$"""{"type":"job","source":"classic","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","job_id":"{{id}}","container_id":"ab7b85dcac72"}""";
            File.WriteAllLines(Path.Combine(store, "a.ndjson"), [Line("f01-loss-1-000000"), Line("f01-loss-1-000001"), Line("f02-partition-000000")]);
            File.WriteAllLines(Path.Combine(store, "b.ndjson"), [Line("f01-loss-1-000001"), Line("f01-loss-1-000002")]);
            File.WriteAllText(Path.Combine(store, "notes.txt"), Line("f01-loss-1-000003"));

            Assert.Equal((4, 3), PersistedIds.Count(store, "f01-loss-1-"));
            Assert.Equal((1, 1), PersistedIds.Count(store, "f02-"));
            Assert.Equal((0, 0), PersistedIds.Count(store, "f03-"));
        }
        finally
        {
            Directory.Delete(store, recursive: true);
        }
    }

    [Fact]
    public void TheWireDelaysAsNetemWould()
    {
        var random = new Random(7);
        var ticksPerMs = Stopwatch.Frequency / 1000.0;
        var latency = new WireImpairment(TimeSpan.FromMilliseconds(50), TimeSpan.FromMilliseconds(10), 0, TimeSpan.Zero);
        var reorder = new WireImpairment(TimeSpan.Zero, TimeSpan.Zero, 0.25, TimeSpan.FromMilliseconds(10));

        var delays = Enumerable.Range(0, 10_000).Select(_ => latency.DeliverAt(0, random) / ticksPerMs).ToList();
        var held = Enumerable.Range(0, 10_000).Count(_ => reorder.DeliverAt(0, random) > 0);

        Assert.Equal(0, WireImpairment.None.DeliverAt(0, random));
        Assert.All(delays, d => Assert.InRange(d, 40, 60));
        Assert.InRange(delays.Average(), 49, 51);
        Assert.InRange(held, 2_000, 3_000);
    }

    [Fact]
    public void TheTableGivesEachFaultItsRequestsErrorsRecoveryLossAndDuplicates()
    {
        var survived = Outcome("partition", recovery: 4, opened: 1.2, lastRefusal: 2.5, problems: []);
        var failed = Outcome("loss-5", recovery: null, opened: null, lastRefusal: null, problems: ["not back to normal within 9 s of the fault's end"]);

        var rows = FaultsCommand.Table([survived, failed]).Split('\n');

        Assert.StartsWith("| fault | for | requests | errors by status | time to recover | lost | duplicated |", rows[0], StringComparison.Ordinal);
        Assert.Equal("| partition (every packet dropped both ways) | 10 s | 2,600 | 502 ×3, 503 ×1,500, 504 ×40 | 4 s | 0 | 0 | opened 1.2 s in, last refusal +2.5 s after the end | 120 MB | survived |", rows[2]);
        Assert.Contains("| not within 9 s | 0 | 0 | stayed closed |", rows[3], StringComparison.Ordinal);
        Assert.EndsWith("| **FAILED**: not back to normal within 9 s of the fault's end |", rows[3], StringComparison.Ordinal);
    }

    private static FaultOutcome Outcome(string name, double? recovery, double? opened, double? lastRefusal, IReadOnlyList<string> problems) => new()
    {
        Fault = name,
        What = "every packet dropped both ways",
        Seconds = 10,
        Requests = 2_600,
        Acknowledged = 1_057,
        Errors = new Dictionary<string, long> { ["status 503"] = 1_500, ["status 502"] = 3, ["status 504"] = 40 },
        RecoverySeconds = recovery,
        RecoveryBound = 9,
        Loss = new LossCheck(1_057, 40, 1_060),
        Duplicated = 0,
        CircuitOpened = opened,
        CircuitLastRefusal = lastRefusal,
        FrontEndPeakResidentBytes = 120L * 1024 * 1024,
        WirePackets = 30_000,
        Problems = problems,
    };
}
