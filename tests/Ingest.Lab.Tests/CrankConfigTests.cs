using System.Globalization;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Crank;
using Ingest.Lab.Processes;
using YamlDotNet.RepresentationModel;

namespace Ingest.Lab.Tests;

/// <summary>The Crank configuration mirrors the lab's catalogue one for one and resolves for every scenario × profile,
/// offline (CrankRunTests has Crank itself check and run it where its tools are installed).</summary>
public sealed class CrankConfigTests
{
    private static readonly string Folder = Path.Combine(RepositoryLayout.Find().Root, "crank");
    private static readonly string ConfigPath = Path.Combine(Folder, CrankConfig.FileName);
    private static readonly string BasePath = Path.Combine(Folder, CrankConfig.BaseFileName);

    [Fact]
    public void TheCommittedConfigurationIsWhatTheCatalogueGenerates()
    {
        Assert.True(
            File.ReadAllText(ConfigPath) == CrankConfig.Generate(ScenarioCatalogue.All),
            "crank/ingest.benchmarks.yml is stale: run `dotnet run --project benchmarks/Ingest.Lab -- crank` and commit it.");
    }

    [Fact]
    public void TheGeneratedScenariosImportTheHandWrittenBaseAndNothingElse()
    {
        var generated = Root(File.ReadAllText(ConfigPath));
        Assert.Equal(["imports", "scenarios"], generated.Children.Keys.Select(k => k.ToString()));
        Assert.Equal([CrankConfig.BaseImport], ((YamlSequenceNode)generated["imports"]).Children.Select(n => n.ToString()));
        Assert.True(File.Exists(Path.Combine(RepositoryLayout.Find().Root, CrankConfig.BaseImport)));
        Assert.Equal(["variables", "counters", "results", "jobs", "profiles"], Root(File.ReadAllText(BasePath)).Children.Keys.Select(k => k.ToString()));
    }

    [Fact]
    public void EveryLabScenarioHasACrankTwinWithTheSameSettings()
    {
        var scenarios = Load(File.ReadAllText(ConfigPath));
        foreach (var scenario in ScenarioCatalogue.All.Where(CrankConfig.Covers))
        {
            var name = CrankConfig.ScenarioName(scenario);
            Assert.True(scenarios.TryGetValue(name, out var twin), $"{scenario.Id} has no Crank scenario '{name}'");
            Assert.Equal(CrankConfig.ServiceVariables(scenario.FrontEnd, Running.ServiceRole.FrontEnd), twin["application"]);
            if (scenario.BackEnd is { } backEnd)
            {
                Assert.Equal(CrankConfig.ServiceVariables(backEnd, Running.ServiceRole.BackEnd), twin["backend"]);
            }

            foreach (var (key, value) in CrankConfig.LoadVariables(scenario.Load))
            {
                Assert.Equal(value, twin["load"][key]);
            }
        }

        Assert.Contains(CrankConfig.IngestScenario, scenarios.Keys);
        Assert.DoesNotContain("storage-postgresql", scenarios.Keys);
    }

    [Fact]
    public void TheLoadJobWarmsUpAsTheLabDoes()
    {
        var variables = (YamlMappingNode)Root(File.ReadAllText(BasePath))["variables"];
        var lab = new LabOptions();
        Assert.Equal(lab.Warmup.TotalSeconds.ToString(CultureInfo.InvariantCulture), variables["warmup"].ToString());
        Assert.Equal(lab.WarmupLimit.TotalSeconds.ToString(CultureInfo.InvariantCulture), variables["warmupLimit"].ToString());

        // A scenario that needs a longer first phase gets it, as in the lab.
        var scenarios = Load(File.ReadAllText(ConfigPath));
        foreach (var scenario in ScenarioCatalogue.All.Where(s => CrankConfig.Covers(s) && s.MinimumWarmup > lab.Warmup))
        {
            Assert.Equal(scenario.MinimumWarmup.TotalSeconds.ToString(CultureInfo.InvariantCulture), scenarios[CrankConfig.ScenarioName(scenario)]["load"]["warmup"]);
        }
    }

    [Fact]
    public void NoServiceListensOnAnAgentsPort()
    {
        // In the local profile every job shares the agent's host: a service on the agent's port fails to bind.
        var text = File.ReadAllText(BasePath);
        var agentPorts = System.Text.RegularExpressions.Regex.Matches(text, @"- http://[0-9.]+:(\d+)").Select(m => m.Groups[1].Value).ToHashSet();
        Assert.NotEmpty(agentPorts);
        foreach (var (name, services) in Load(File.ReadAllText(ConfigPath)))
        {
            foreach (var (service, variables) in services)
            {
                foreach (var (key, value) in variables.Where(v => v.Key.EndsWith("Port", StringComparison.Ordinal) || v.Key == "upstreams"))
                {
                    Assert.DoesNotContain(agentPorts, port => value == port || value.Contains(":" + port, StringComparison.Ordinal));
                }
            }
        }

        Assert.DoesNotContain(agentPorts, port => text.Contains($"Port: {port}\n", StringComparison.Ordinal));
    }

    [Fact]
    public void EveryScenarioAndProfileResolves()
    {
        Assert.Empty(CrankValidator.Validate(ConfigPath, CrankConfig.PublishedFolders));
    }

    [Theory]
    [InlineData("-c {{connections}}", "-c {{connectionz}}", "variable 'connectionz' is not defined")]
    [InlineData("      job: ingest-loadgen", "      job: ingest-loadgun", "job 'ingest-loadgun' is not defined")]
    [InlineData("--crank\n", "--crank {% if payload != 'none' %}\n", "unbalanced")]
    [InlineData("localFolder: ../artifacts/crank/go\n", "localFolder: ../artifacts/crank/goo\n", "'../artifacts/crank/goo' neither exists")]
    [InlineData("        destinationFolder: ''\n", "", "names 'Ingest.BackEnd.dll', which is not where the agent puts the job's files")]
    [InlineData("arguments: proxy.sh nginx", "arguments: proxi.sh nginx", "names 'proxi.sh', which is not where the agent puts the job's files")]
    [InlineData(" --Kestrel:Transport {{transport}}", "", "sets 'transport', which job 'ingest-frontend' never reads")]
    [InlineData(" -client {{goClient}}", "", "sets 'goClient', which job 'go-frontend' never reads")]
    [InlineData("  - crank/ingest.base.yml", "  - ingest.base.yml", "imports 'ingest.base.yml', which is not found from")]
    [InlineData("      load:\n        endpoints: []\n", "", "profile remote, service load: the profile gives no endpoint for 'load'")]
    public void TheValidatorCatchesWhatCrankWouldRefuse(string find, string replace, string problem)
    {
        Assert.Contains(ValidateBroken(find, replace), p => p.Contains(problem, StringComparison.Ordinal));
    }

    [Fact]
    public void TheRemoteProfileLeavesEveryAgentUrlToTheCommandLine()
    {
        // Crank adds --<service>.endpoints to the profile's list and probes every URL in it: a placeholder host
        // in the profile would fail every remote run.
        var text = File.ReadAllText(BasePath);
        var remote = text[text.IndexOf("\n  remote:\n", StringComparison.Ordinal)..];
        Assert.DoesNotContain("http://", remote, StringComparison.Ordinal);
    }

    [Fact]
    public void ThePublishScriptBuildsEveryFolderTheJobsUpload()
    {
        var script = File.ReadAllText(Path.Combine(Folder, "publish.sh"));
        foreach (var folder in CrankConfig.PublishedFolders)
        {
            var name = Path.GetFileName(folder);
            var build = name.LastIndexOf('-') is var dash and > 0 ? name[dash..] : "";
            Assert.True(
                script.Contains($"$out/{name}", StringComparison.Ordinal) || script.Contains("$out/$app" + build, StringComparison.Ordinal),
                $"crank/publish.sh does not build {folder}");
        }
    }

    /// <summary>The problems the validator finds once <paramref name="find"/> is replaced in whichever of the two files
    /// holds it: broken copies beside the real ones, the scenarios' copy importing the base's.</summary>
    private static IReadOnlyList<string> ValidateBroken(string find, string replace)
    {
        var scenarios = File.ReadAllText(ConfigPath);
        var @base = File.ReadAllText(BasePath);
        Assert.True(scenarios.Contains(find, StringComparison.Ordinal) || @base.Contains(find, StringComparison.Ordinal), find);
        var name = $"broken-{Guid.NewGuid():N}";
        var brokenBase = Path.Combine(Folder, name + ".base.yml");
        var brokenScenarios = Path.Combine(Folder, name + ".yml");
        try
        {
            File.WriteAllText(brokenBase, @base.Replace(find, replace, StringComparison.Ordinal));
            File.WriteAllText(brokenScenarios, scenarios.Replace(find, replace, StringComparison.Ordinal)
                .Replace(CrankConfig.BaseImport, $"crank/{name}.base.yml", StringComparison.Ordinal));
            return CrankValidator.Validate(brokenScenarios, CrankConfig.PublishedFolders);
        }
        finally
        {
            File.Delete(brokenBase);
            File.Delete(brokenScenarios);
        }
    }

    private static YamlMappingNode Root(string text)
    {
        var yaml = new YamlStream();
        yaml.Load(new StringReader(text));
        return (YamlMappingNode)yaml.Documents[0].RootNode;
    }

    private static Dictionary<string, Dictionary<string, Dictionary<string, string>>> Load(string text)
    {
        var root = Root(text);
        var result = new Dictionary<string, Dictionary<string, Dictionary<string, string>>>();
        foreach (var (name, services) in (YamlMappingNode)root["scenarios"])
        {
            var byService = result[name.ToString()] = [];
            foreach (var (service, body) in (YamlMappingNode)services)
            {
                var variables = byService[service.ToString()] = [];
                if (((YamlMappingNode)body).Children.TryGetValue(new YamlScalarNode("variables"), out var node))
                {
                    foreach (var (key, value) in (YamlMappingNode)node)
                    {
                        variables[key.ToString()] = ((YamlScalarNode)value).Value ?? "";
                    }
                }
            }
        }

        return result;
    }
}
