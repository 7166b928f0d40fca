using System.Text.RegularExpressions;
using YamlDotNet.RepresentationModel;

namespace Ingest.Lab.Crank;

/// <summary>
/// Checks a Crank configuration the way the controller would load it, for every scenario × profile, without
/// an agent: every service names a defined job and has an endpoint in the profile, every Liquid variable a
/// job uses resolves (root &lt; job &lt; scenario &lt; profile, recursively), Liquid tags are balanced, and every
/// local source folder either exists or is one the publish script creates. Crank's own debug mode would do
/// this, but its tools are not on this machine's package mirror (docs/dependencies.md).
/// </summary>
internal static partial class CrankValidator
{
    public static IReadOnlyList<string> Validate(string configPath, IReadOnlySet<string> publishedFolders)
    {
        var problems = new List<string>();
        var yaml = new YamlStream();
        using (var reader = new StreamReader(configPath))
        {
            yaml.Load(reader);
        }

        var root = (YamlMappingNode)yaml.Documents[0].RootNode;
        var rootVariables = Scalars(Child(root, "variables"));
        var jobs = Child(root, "jobs") as YamlMappingNode ?? throw new InvalidOperationException("No jobs.");
        var scenarios = Child(root, "scenarios") as YamlMappingNode ?? throw new InvalidOperationException("No scenarios.");
        var profiles = Child(root, "profiles") as YamlMappingNode ?? throw new InvalidOperationException("No profiles.");
        var folder = Path.GetDirectoryName(Path.GetFullPath(configPath))!;

        foreach (var (jobKey, jobNode) in jobs.Children)
        {
            var job = (YamlMappingNode)jobNode;
            var sources = Child(job, "sources") as YamlMappingNode;
            foreach (var source in sources?.Children.Values ?? [])
            {
                var local = Scalar(Child((YamlMappingNode)source, "localFolder"));
                if (local is not null && !Directory.Exists(Path.Combine(folder, local)) && !publishedFolders.Contains(local))
                {
                    problems.Add($"job {jobKey}: source folder '{local}' neither exists nor is built by crank/publish.sh");
                }
            }

            if (Scalar(Child(job, "executable")) is null)
            {
                problems.Add($"job {jobKey}: no executable");
            }
        }

        foreach (var (scenarioKey, scenarioNode) in scenarios.Children)
        {
            foreach (var (profileKey, profileNode) in profiles.Children)
            {
                var profile = (YamlMappingNode)profileNode;
                var profileVariables = Scalars(Child(profile, "variables"));
                var profileJobs = Child(profile, "jobs") as YamlMappingNode;
                foreach (var (serviceKey, serviceNode) in ((YamlMappingNode)scenarioNode).Children)
                {
                    var where = $"scenario {scenarioKey}, profile {profileKey}, service {serviceKey}";
                    var service = (YamlMappingNode)serviceNode;
                    var jobName = Scalar(Child(service, "job"));
                    if (jobName is null || Child(jobs, jobName) is not YamlMappingNode job)
                    {
                        problems.Add($"{where}: job '{jobName}' is not defined");
                        continue;
                    }

                    if (profileJobs is null || Child(profileJobs, serviceKey.ToString()) is not YamlMappingNode endpoints
                        || Child(endpoints, "endpoints") is not YamlSequenceNode { Children.Count: > 0 })
                    {
                        problems.Add($"{where}: the profile gives no endpoint for '{serviceKey}'");
                    }

                    var variables = new Dictionary<string, string>(rootVariables);
                    Merge(variables, Scalars(Child(job, "variables")));
                    Merge(variables, Scalars(Child(service, "variables")));
                    Merge(variables, profileVariables);
                    foreach (var template in Templates(job))
                    {
                        problems.AddRange(CheckTemplate(template, variables).Select(p => $"{where}: {p}"));
                    }
                }
            }
        }

        return problems;
    }

    /// <summary>Unresolved variables and unbalanced tags of one template, after resolving variables recursively.</summary>
    private static IEnumerable<string> CheckTemplate(string template, Dictionary<string, string> variables)
    {
        var ifs = IfTag().Count(template);
        var ends = EndIfTag().Count(template);
        if (ifs != ends)
        {
            yield return $"unbalanced {{% if %}} / {{% endif %}} in '{template}'";
        }

        var pending = new Queue<string>([template]);
        var seen = new HashSet<string>(StringComparer.Ordinal);
        while (pending.Count > 0)
        {
            foreach (Match match in Variable().Matches(pending.Dequeue()))
            {
                var name = match.Groups[1].Value;
                if (!seen.Add(name))
                {
                    continue;
                }

                if (variables.TryGetValue(name, out var value))
                {
                    pending.Enqueue(value);
                }
                else
                {
                    yield return $"variable '{name}' is not defined";
                }
            }

            foreach (Match match in IfVariable().Matches(template))
            {
                if (!variables.ContainsKey(match.Groups[1].Value))
                {
                    yield return $"variable '{match.Groups[1].Value}' in an if tag is not defined";
                }
            }
        }
    }

    private static IEnumerable<string> Templates(YamlMappingNode job)
    {
        foreach (var key in new[] { "executable", "arguments" })
        {
            if (Scalar(Child(job, key)) is { } text)
            {
                yield return text;
            }
        }

        foreach (var (_, value) in Scalars(Child(job, "environmentVariables")))
        {
            yield return value;
        }
    }

    private static void Merge(Dictionary<string, string> into, Dictionary<string, string> from)
    {
        foreach (var (key, value) in from)
        {
            into[key] = value;
        }
    }

    private static YamlNode? Child(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var child) ? child : null;

    private static string? Scalar(YamlNode? node) => (node as YamlScalarNode)?.Value;

    private static Dictionary<string, string> Scalars(YamlNode? node)
    {
        var result = new Dictionary<string, string>(StringComparer.Ordinal);
        if (node is YamlMappingNode mapping)
        {
            foreach (var (key, value) in mapping.Children)
            {
                result[key.ToString()] = Scalar(value) ?? "";
            }
        }

        return result;
    }

    [GeneratedRegex(@"\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}")]
    private static partial Regex Variable();

    [GeneratedRegex(@"\{%\s*if\s+([A-Za-z_][A-Za-z0-9_]*)")]
    private static partial Regex IfVariable();

    [GeneratedRegex(@"\{%\s*if\b")]
    private static partial Regex IfTag();

    [GeneratedRegex(@"\{%\s*endif\s*%\}")]
    private static partial Regex EndIfTag();
}
