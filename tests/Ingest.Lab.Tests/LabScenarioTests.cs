using System.Text.Json.Nodes;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Results;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>The lab end to end on real processes: a tiny scenario writes real results, and the loss check and
/// the failure paths do what the report promises.</summary>
[Collection(LabProcesses.Name)]
public sealed class LabScenarioTests(LabFixture lab)
{
    private static readonly LabOptions Tiny = new()
    {
        Repeats = 2,
        Warmup = TimeSpan.FromSeconds(1),
        WarmupLimit = TimeSpan.FromSeconds(1), // one warm-up phase: the counts below are exact
        // Every repeat ends at its requests; the time is only a cap, wide enough for services that start cold on a machine
        // busy with Native AOT compiles (a 5 s cap ended repeats short there, and the exact counts below failed).
        Duration = TimeSpan.FromSeconds(30),
        Requests = 300,
        Install = false,
    };

    [Fact]
    public async Task ASmokeRunWritesAllThreeResultFilesWithRealContent()
    {
        var folder = Path.Combine(lab.Output, "smoke");
        // With a front-end setting on the command line's terms (run --front-end), which the result must record.
        var exit = await new RunCommand(lab.Layout, TextWriter.Null, lab.Publisher).RunAsync(
            Tiny with { Sets = ["smoke"], Output = folder, FrontEndSettings = new Dictionary<string, string> { ["Forwarding:TimeoutMilliseconds"] = "30000" } },
            "test", CancellationToken.None);

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(folder));
        var results = JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(run, ResultFiles.ResultsJson)))!;
        var scenario = results["scenarios"]![0]!;
        Assert.Equal("Passed", (string?)scenario["status"]);
        Assert.Equal(2, scenario["runs"]!.AsArray().Count);
        Assert.Equal(1.0, (double)scenario["warmupSeconds"]!);
        foreach (var measured in scenario["runs"]!.AsArray())
        {
            Assert.True((long)measured!["successful"]! == 300, measured.ToJsonString());
            Assert.True((double)measured["requestsPerSecond"]! > 0);
            Assert.True((double)measured["latency"]!["p99"]! > 0);
            Assert.True((long)measured["processes"]!["front-end"]!["peakResidentBytes"]! > 0);
        }

        // Both repeats and the warm-up, which ends at its 300 requests or its second, whichever comes first (CI's loaded
        // machine once served 155 in that second). A warm-up ended by its second leaves the requests then in flight
        // with an unknown outcome (the server may still persist them: CI's run 23 had 4 such), so every acknowledged
        // one is persisted, and at most those in flight besides; the repeats, ended by their requests, leave none.
        var loss = scenario["loss"]!;
        var (acknowledged, unknown, persisted) = ((long)loss["acknowledged"]!, (long)loss["unknown"]!, (long)loss["persisted"]!);
        Assert.InRange(acknowledged, 600 + 1, 900);
        Assert.True(persisted >= acknowledged && persisted <= acknowledged + unknown && unknown <= ScenarioCatalogue.InSet("smoke")[0].Load.Connections, loss.ToJsonString());
        Assert.All(scenario["runs"]!.AsArray(), measured => Assert.Equal(0, (long)measured!["unknown"]!));
        Assert.Contains("Forwarding:TimeoutMilliseconds=30000", (string?)scenario["configuration"]!["front-end"], StringComparison.Ordinal);
        Assert.False(string.IsNullOrEmpty((string?)results["machine"]!["kernel"]));

        var summary = await File.ReadAllTextAsync(Path.Combine(run, ResultFiles.SummaryMarkdown));
        Assert.Contains("## smoke", summary, StringComparison.Ordinal);
        Assert.Contains("| aspnet-static |", summary, StringComparison.Ordinal);
        var html = await File.ReadAllTextAsync(Path.Combine(run, ResultFiles.ReportHtml));
        Assert.Contains("<svg", html, StringComparison.Ordinal);
        Assert.Contains("aspnet-static", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheHeadlinesRoundsComeBackToTheSameWarmServicesAndEndWithAVerdict()
    {
        var folder = Path.Combine(lab.Output, "headline");
        var output = new StringWriter();
        var options = Tiny with
        {
            Sets = [ScenarioCatalogue.HeadlineSet],
            Filter = "=aspnet-fastest-c50,=aspnet-default-c50",
            Output = folder,
            Rounds = 2,
            KeepServices = true,
            Rewarm = TimeSpan.FromSeconds(1),
        };
        var exit = await new RunCommand(lab.Layout, output, lab.Publisher).RunAsync(options, "test", CancellationToken.None);

        Assert.True(exit == 0, output.ToString());
        var run = Assert.Single(Directory.GetDirectories(folder));
        var report = ResultFiles.Read(run);
        foreach (var scenario in report.Scenarios)
        {
            // Both rounds' repeats, each round's loss check on what that round sent (its warm-up, which ends at its 300
            // requests or its second, and two repeats of 300): round 2 counts from the back-end's total at round 1's
            // check, so it passes only against the same back-end process — a restarted one would have counted from 0
            // and found fewer than round 2 sent. The exact total depends on what the warm-ups served in their second.
            Assert.True(scenario.Status == ScenarioStatus.Passed, scenario.Reason);
            Assert.True(scenario.Runs.Count == 4 && scenario.Runs.All(r => r.Successful == 300), string.Join("; ", scenario.Runs.Select(r => $"{r.Successful} acknowledged, errors {r.ErrorCount}")));
            var loss = scenario.Loss!;
            // As in the smoke run: a warm-up ended by its second may leave its in-flight requests of unknown outcome.
            Assert.True(loss.Passed && loss.Unknown <= 2 * 50 && loss.Acknowledged is > 1_200 and <= 1_800, loss.Describe());
            Assert.All(scenario.Runs, r => Assert.Equal(0, r.Unknown));
        }

        // The verdict the console ends with, summary.md and report.html open with, and the headline's own record.
        var verdict = Assert.Single(Verdicts.Of(report.Scenarios));
        Assert.Equal(("fastest vs default .NET", 50, 4, 4), (verdict.Question, verdict.Connections, verdict.SubjectSamples, verdict.BaselineSamples));
        Assert.Contains("fastest vs default .NET", output.ToString(), StringComparison.Ordinal);
        Assert.StartsWith("# Ingest lab run", await File.ReadAllTextAsync(Path.Combine(run, ResultFiles.SummaryMarkdown)), StringComparison.Ordinal);
        Assert.Contains("## The answer", await File.ReadAllTextAsync(Path.Combine(run, ResultFiles.SummaryMarkdown)), StringComparison.Ordinal);
        var headline = HeadlineSummary.Read(Path.Combine(run, ResultFiles.HeadlineJson));
        Assert.Equal(["aspnet-default-c50", "aspnet-fastest-c50"], headline.Rows.Select(r => r.Name).Order());
    }

    [Fact]
    public async Task TheStorageSetRunsEverySinkAgainstRealStoresAndRemovesThemAfterwards()
    {
        var folder = Path.Combine(lab.Output, "storage");
        var before = LabStoreDirectories();
        var exit = await new RunCommand(lab.Layout, TextWriter.Null, lab.Publisher).RunAsync(
            Tiny with { Sets = [LabSmokeTests.StorageSet], Output = folder, Repeats = 1, Warmup = TimeSpan.Zero, Requests = 200, Prometheus = true }, "test", CancellationToken.None);

        var run = Assert.Single(Directory.GetDirectories(folder));
        var results = JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(run, ResultFiles.ResultsJson)))!;
        var scenarios = results["scenarios"]!.AsArray();
        Assert.True(exit == 0, string.Join("\n", scenarios.Select(s => $"{s!["name"]}: {s["status"]} {s["reason"]}")));
        Assert.Equal(["null", "memory", "file", "postgresql", "redis"], scenarios.Select(s => (string?)s!["name"]));
        foreach (var scenario in scenarios)
        {
            Assert.Equal("Passed", (string?)scenario!["status"]);
            Assert.Equal(200, (long)scenario["runs"]![0]!["successful"]!);
            Assert.Equal(200, (long)scenario["loss"]!["acknowledged"]!);
            Assert.Equal(200, (long)scenario["loss"]!["persisted"]!);
            // As the smoke test checks of every other set: both .NET services' runtime counters were read around the run.
            foreach (var service in new[] { "front-end", "back-end" })
            {
                var gc = scenario["runs"]![0]!["processes"]![service]!["gc"]!;
                Assert.True((double)gc["allocatedBytesPerRequest"]! > 0, $"{scenario["name"]}: the {service} allocated nothing by its counters");
                Assert.InRange((double)gc["pauseShare"]!, 0, 0.999);
            }

            // Prometheus scraped both services (the figures of a run this short are rough, so only their presence).
            Assert.NotNull(scenario["prometheus"]!["front-end"]);
            Assert.NotNull(scenario["prometheus"]!["back-end"]);
            var config = await File.ReadAllTextAsync(Path.Combine(run, "scenarios", "storage", (string)scenario["name"]!, "prometheus", "prometheus.yml"));
            Assert.Contains("job_name: back-end", config, StringComparison.Ordinal);
        }

        Assert.Contains("PostgreSql", (string?)scenarios[3]!["configuration"]!["back-end"], StringComparison.Ordinal);
        Assert.Contains("As Prometheus saw it", await File.ReadAllTextAsync(Path.Combine(run, ResultFiles.ReportHtml)), StringComparison.Ordinal);
        // Every store's throwaway directory (and Prometheus' storage) is gone again.
        Assert.Empty(LabStoreDirectories().Except(before));
    }

    [Fact]
    public async Task TheLossCheckCatchesABackEndThatDropsOneEventInAThousand()
    {
        var scenario = ScenarioCatalogue.InSet("smoke")[0] with { Name = "dropping" };
        scenario = scenario with { BackEnd = scenario.BackEnd!.With(("Faults:DropOneIn", "1000")), Load = scenario.Load with { Connections = 8 } };

        // Each repeat ends at its 1,500 requests (the counts below are exact).
        var result = await lab.Runner(Tiny with { Requests = 1500, Warmup = TimeSpan.Zero }).RunAsync(scenario, _ => { }, CancellationToken.None);

        Assert.Equal(ScenarioStatus.Failed, result.Status);
        Assert.NotNull(result.Loss);
        Assert.False(result.Loss.Passed);
        Assert.Equal(3000, result.Loss.Acknowledged);
        Assert.Equal(3000 - 3, result.Loss.Persisted);
        Assert.Contains("LOST 3 events", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AServiceThatCannotStartFailsTheScenarioWithItsOwnMessage()
    {
        var scenario = ScenarioCatalogue.InSet("smoke")[0] with { Name = "misconfigured" };
        scenario = scenario with { FrontEnd = scenario.FrontEnd.With(("Forwarding:TimeoutMilliseconds", "0")) };

        var result = await lab.Runner(Tiny).RunAsync(scenario, _ => { }, CancellationToken.None);

        Assert.Equal(ScenarioStatus.Failed, result.Status);
        Assert.Contains("Forwarding:TimeoutMilliseconds = 0 is outside", result.Reason, StringComparison.Ordinal);
        Assert.Empty(result.Runs);
    }

    [Fact]
    public async Task AScenarioWhoseProgramIsMissingIsSkippedWithTheReason()
    {
        // A checkout without the Go baselines: the Go scenario is skipped, not failed.
        var empty = Directory.CreateTempSubdirectory("ingest-no-go-").FullName;
        try
        {
            var artifacts = new Artifacts(new Processes.RepositoryLayout(empty), lab.Publisher, TextWriter.Null);
            var runner = new ScenarioRunner(artifacts, lab.LoadGenerator, null, Tiny, Pinning.None, lab.Output);
            var goScenario = ScenarioCatalogue.InSet("classic").First(s => s.FrontEnd.Implementation == Implementation.GoNetHttp);

            var result = await runner.RunAsync(goScenario, _ => { }, CancellationToken.None);

            Assert.Equal(ScenarioStatus.Skipped, result.Status);
            Assert.Contains("Go baselines are not in this checkout", result.Reason, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(empty, recursive: true);
        }
    }

    private static HashSet<string> LabStoreDirectories() =>
        [.. Directory.GetDirectories(Path.GetTempPath(), "ingest-lab-*")];
}
