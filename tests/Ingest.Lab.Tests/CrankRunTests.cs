using System.Diagnostics;
using System.Text.Json.Nodes;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Crank;
using Ingest.Lab.Processes;
using Xunit.Abstractions;

namespace Ingest.Lab.Tests;

/// <summary>
/// Crank itself over the generated configuration: its debug mode resolves every scenario on every profile, and one
/// small scenario runs through a real controller and agent with the loss check. Where the tools are not installed
/// these tests are skipped with that reason; the offline checks (CrankConfigTests) run everywhere.
/// </summary>
public sealed class CrankRunTests(CrankRunTests.Published published, ITestOutputHelper output) : IClassFixture<CrankRunTests.Published>
{
    private static readonly string Root = RepositoryLayout.Find().Root;
    private static readonly string Config = Path.Combine(Root, "crank", CrankConfig.FileName);
    private static readonly string[] Profiles = ["local", "remote"];

    private static IEnumerable<string> ScenarioNames =>
        [CrankConfig.IngestScenario, .. ScenarioCatalogue.All.Where(CrankConfig.Covers).Select(CrankConfig.ScenarioName)];

    [CrankFact]
    public async Task CranksDebugModeResolvesEveryScenarioOnEveryProfileToFilesThatExist()
    {
        await published.EnsureAsync();
        var work = Directory.CreateTempSubdirectory("ingest-crank-debug-").FullName;
        var problems = new System.Collections.Concurrent.ConcurrentBag<string>();
        try
        {
            var runs = ScenarioNames.SelectMany(s => Profiles.Select(p => (Scenario: s, Profile: p)));
            await Parallel.ForEachAsync(runs, new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount }, async (run, token) =>
            {
                var (scenario, profile) = run;
                var file = Path.Combine(work, $"{scenario}.{profile}.json");
                var (exit, text) = await RunAsync("crank", ["--config", Config, "--scenario", scenario, "--profile", profile, "-d", file], TimeSpan.FromMinutes(1));
                if (exit != 0 || !File.Exists(file))
                {
                    problems.Add($"{scenario} / {profile}: crank -d exited {exit}: {text}");
                    return;
                }

                foreach (var problem in CheckResolved(JsonNode.Parse(await File.ReadAllTextAsync(file, token))!, scenario))
                {
                    problems.Add($"{scenario} / {profile}: {problem}");
                }
            });
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }

        Assert.True(problems.IsEmpty, string.Join("\n", problems.Order()));
    }

    [CrankFact]
    public async Task TheIngestScenarioRunsOnARealAgentWithRuntimeCountersAndLosesNothing()
    {
        await published.EnsureAsync();

        var (exit, text) = await RunAsync("bash", [Path.Combine(Root, "crank", "run-local.sh"), "--no-publish", CrankConfig.IngestScenario,
            "--variable", "warmup=1", "--variable", "warmupLimit=1", "--variable", "duration=3"], TimeSpan.FromMinutes(5));

        output.WriteLine(text);
        Assert.True(exit == 0, text);
        var path = text.Split('\n').Single(l => l.StartsWith("Results: ", StringComparison.Ordinal))["Results: ".Length..].Trim();
        try
        {
            var jobs = JsonNode.Parse(await File.ReadAllTextAsync(path))!["jobResults"]!["jobs"]!;
            var load = jobs["load"]!["results"]!;
            Assert.True((double)load["http/requests"]! > 0);
            Assert.True((double)load["http/rps/mean"]! > 0);
            Assert.Equal(0, (double)load["http/requests/errors"]!);
            Assert.Equal(0, (double)load["http/requests/badresponses"]!);
            Assert.True((double)load["http/latency/99"]! > 0);
            Assert.True((double)load["ingest/events/acknowledged"]! > 0);
            Assert.Equal(0, (double)load["ingest/events/lost"]!);
            Assert.Equal(1, (double)load["ingest/losscheck"]!);
            foreach (var service in new[] { "application", "backend" })
            {
                var results = jobs[service]!["results"]!.AsObject();
                foreach (var counter in new[] { "benchmarks/cpu", "benchmarks/working-set", "runtime-counter/gc-heap-size", "runtime-counter/threadpool-thread-count", "ingest-counter/requests-per-second", "ingest-counter/total-events" })
                {
                    Assert.True(results.ContainsKey(counter), $"{service} has no {counter}: {string.Join(", ", results.Select(r => r.Key))}");
                }

                // The services' own counters count what they answered (from when the agent attached, before the load).
                Assert.True((double)results["ingest-counter/total-events"]! > 0, $"{service}: no events counted");
                Assert.Equal(0, (double)results["ingest-counter/failed-requests"]!);
            }
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task RunLocalFailsAndSaysHowToInstallCrankWhenTheToolsAreMissing()
    {
        var empty = Directory.CreateTempSubdirectory("ingest-no-crank-").FullName;
        try
        {
            // A PATH with bash and dotnet but no Crank, a HOME without ~/.dotnet/tools.
            var (exit, text) = await RunAsync("bash", [Path.Combine(Root, "crank", "run-local.sh"), CrankConfig.IngestScenario], TimeSpan.FromSeconds(30),
                new() { ["PATH"] = "/usr/bin:/bin", ["HOME"] = empty, ["CRANK_TOOLS"] = empty });

            Assert.Equal(3, exit);
            Assert.Contains("dotnet tool install -g Microsoft.Crank.Controller", text, StringComparison.Ordinal);
            Assert.DoesNotContain("Results:", text, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(empty, recursive: true);
        }
    }

    /// <summary>What Crank resolved for a scenario: each service's job has an executable, arguments with no
    /// template left, and sources that unpack into the job's folder from a folder that holds the named files.</summary>
    private static IEnumerable<string> CheckResolved(JsonNode debug, string scenario)
    {
        var services = debug["Scenarios"]![scenario]!.AsObject().Select(s => s.Key).ToList();
        foreach (var service in services)
        {
            var job = debug["Jobs"]![service];
            if (job is null)
            {
                yield return $"service {service} was not resolved";
                continue;
            }

            var executable = (string?)job["Executable"] ?? "";
            var arguments = (string?)job["Arguments"] ?? "";
            if (executable.Length == 0 || $"{executable} {arguments}".Contains("{{", StringComparison.Ordinal) || arguments.Contains("{%", StringComparison.Ordinal))
            {
                yield return $"service {service}: '{executable} {arguments}' is not fully resolved";
            }

            foreach (var (name, source) in job["Sources"]!.AsObject())
            {
                var local = (string?)source!["LocalFolder"] ?? "";
                if ((string?)source["DestinationFolder"] != "")
                {
                    yield return $"service {service}: source {name} does not unpack into the job's folder";
                }

                // The AOT and trimmed folders exist only after publish.sh --aot; every other one was published by the fixture.
                if (!Directory.Exists(local))
                {
                    if (!local.EndsWith("-aot", StringComparison.Ordinal) && !local.EndsWith("-trimmed", StringComparison.Ordinal))
                    {
                        yield return $"service {service}: source folder {local} does not exist";
                    }

                    continue;
                }

                var named = executable.StartsWith('/') ? arguments.Split(' ')[0] : executable;
                if (named.Length > 0 && !named.StartsWith('-') && !File.Exists(Path.Combine(local, named)))
                {
                    yield return $"service {service}: {named} is not in {local}";
                }
            }
        }
    }

    private static async Task<(int Exit, string Output)> RunAsync(string file, string[] arguments, TimeSpan timeout, Dictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(file, arguments) { WorkingDirectory = Root };
        if (file == "crank")
        {
            start.FileName = Path.Combine(CrankTools.Folder!, "crank");
        }

        foreach (var (key, value) in environment ?? [])
        {
            start.Environment[key] = value;
        }

        return await ChildProcess.RunAsync(start, timeout);
    }

    /// <summary>crank/publish.sh once for the class, and only when a test that needs Crank runs.</summary>
    public sealed class Published
    {
        private readonly Lazy<Task> _publish = new(async () =>
        {
            var (exit, text) = await RunAsync("bash", [Path.Combine(Root, "crank", "publish.sh")], TimeSpan.FromMinutes(10));
            Assert.True(exit == 0, $"crank/publish.sh failed:\n{text}");
        });

        public Task EnsureAsync() => _publish.Value;
    }
}
