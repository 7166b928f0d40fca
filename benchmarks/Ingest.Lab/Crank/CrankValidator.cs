using System.Text.RegularExpressions;
using Ingest.Lab.Processes;
using YamlDotNet.RepresentationModel;

namespace Ingest.Lab.Crank;

/// <summary>
/// Checks a Crank configuration the way the controller would load it (with what it imports), for every scenario ×
/// profile, without an agent: every service names a defined job and has an endpoint in the profile (or <c>endpoints: []</c>, left to
/// the command line), every Liquid variable a job uses resolves (root &lt; job &lt; scenario &lt; profile,
/// recursively), Liquid tags are balanced, and every
/// local source folder either exists or is one the publish script creates, and every file a job names by a
/// relative path is where the agent will put it: the agent unpacks a source into <c>destinationFolder</c> (by default
/// a subfolder named after the source) and starts the job from the job's own folder. Crank's debug mode
/// (<c>crank -d</c>) checks parsing and resolution too, where its tools are installed; this check needs none.
/// </summary>
internal static partial class CrankValidator
{
    /// <summary>The problems of <paramref name="configPath"/> with what it imports, each import read from
    /// <paramref name="workingDirectory"/> as Crank reads it from its own (by default the repository root, where the docs
    /// and scripts run it).</summary>
    public static IReadOnlyList<string> Validate(string configPath, IReadOnlySet<string> publishedFolders, string? workingDirectory = null)
    {
        var problems = new List<string>();
        var jobFolders = new Dictionary<string, string>(StringComparer.Ordinal);
        var root = Load(Path.GetFullPath(configPath), workingDirectory ?? RepositoryLayout.Find().Root, jobFolders, problems);
        var rootVariables = Scalars(Child(root, "variables"));
        if (Child(root, "jobs") is not YamlMappingNode jobs || Child(root, "scenarios") is not YamlMappingNode scenarios
            || Child(root, "profiles") is not YamlMappingNode profiles)
        {
            problems.Add($"{Path.GetFileName(configPath)} has no jobs, scenarios or profiles, with what it imports");
            return problems;
        }

        foreach (var (jobKey, jobNode) in jobs.Children)
        {
            var job = (YamlMappingNode)jobNode;
            var folder = jobFolders[jobKey.ToString()];
            var sources = Child(job, "sources") as YamlMappingNode;
            var landed = new List<(string Destination, string LocalFolder)>();
            foreach (var (sourceKey, source) in (IEnumerable<KeyValuePair<YamlNode, YamlNode>>?)sources?.Children ?? [])
            {
                var local = Scalar(Child((YamlMappingNode)source, "localFolder"));
                if (local is null)
                {
                    continue;
                }

                if (!Directory.Exists(Path.Combine(folder, local)) && !publishedFolders.Contains(local))
                {
                    problems.Add($"job {jobKey}: source folder '{local}' neither exists nor is built by crank/publish.sh");
                }

                // Crank's default destination is a folder named after the source.
                landed.Add((Scalar(Child((YamlMappingNode)source, "destinationFolder")) ?? sourceKey.ToString(), local));
            }

            if (Scalar(Child(job, "executable")) is null)
            {
                problems.Add($"job {jobKey}: no executable");
            }
            else
            {
                problems.AddRange(CheckPlacement(job, landed, folder, rootVariables).Select(p => $"job {jobKey}: {p}"));
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

                    // An empty list (`endpoints: []`) leaves the URL to the command line, as the remote profile does:
                    // Crank adds --<service>.endpoints to the profile's list, and refuses a service the profile lacks.
                    if (profileJobs is null || Child(profileJobs, serviceKey.ToString()) is not YamlMappingNode agent
                        || Child(agent, "endpoints") is not YamlSequenceNode)
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

                    // A setting the scenario gives a job that none of the job's templates reads would leave the service
                    // on its default while the lab runs it with the setting: the same name, another benchmark.
                    var used = Read(Templates(job), variables, ifTags: true);
                    foreach (var name in Scalars(Child(service, "variables")).Keys.Where(name => !used.Contains(name)))
                    {
                        problems.Add($"{where}: sets '{name}', which job '{jobName}' never reads");
                    }
                }
            }
        }

        return problems;
    }

    /// <summary>
    /// A configuration as Crank's controller loads it: the imports first, each merged over the one before, then the file
    /// itself over them (mappings merged key by key, anything else replaced), <c>imports</c> removed. A job's relative
    /// source folders are the declaring file's, which <paramref name="jobFolders"/> records.
    /// </summary>
    private static YamlMappingNode Load(string path, string workingDirectory, Dictionary<string, string> jobFolders, List<string> problems)
    {
        var yaml = new YamlStream();
        using (var reader = new StreamReader(path))
        {
            yaml.Load(reader);
        }

        var file = (YamlMappingNode)yaml.Documents[0].RootNode;
        YamlMappingNode merged = [];
        foreach (var import in (Child(file, "imports") as YamlSequenceNode)?.Children.Select(Scalar).OfType<string>() ?? [])
        {
            var imported = Path.Combine(workingDirectory, import);
            if (File.Exists(imported))
            {
                merged = (YamlMappingNode)Merge(merged, Load(imported, workingDirectory, jobFolders, problems));
            }
            else
            {
                problems.Add($"{Path.GetFileName(path)} imports '{import}', which is not found from {workingDirectory}: "
                    + "Crank reads an import from its working directory, so run it from the repository root");
            }
        }

        foreach (var (job, _) in (IEnumerable<KeyValuePair<YamlNode, YamlNode>>?)(Child(file, "jobs") as YamlMappingNode)?.Children ?? [])
        {
            jobFolders[job.ToString()] = Path.GetDirectoryName(path)!;
        }

        var result = (YamlMappingNode)Merge(merged, file);
        result.Children.Remove(new YamlScalarNode("imports"));
        return result;
    }

    /// <summary><paramref name="over"/> merged over <paramref name="under"/> into new nodes: the files' own nodes stay as
    /// they are (an aliased node is shared by every job that names it).</summary>
    private static YamlNode Merge(YamlNode under, YamlNode over)
    {
        if (under is not YamlMappingNode lower || over is not YamlMappingNode upper)
        {
            return over;
        }

        var merged = new YamlMappingNode(lower.Children);
        foreach (var (key, value) in upper.Children)
        {
            merged.Children[key] = merged.Children.TryGetValue(key, out var existing) ? Merge(existing, value) : value;
        }

        return merged;
    }

    /// <summary>
    /// Every file the job names by a relative path (its executable, and the arguments that look like files:
    /// <c>Ingest.BackEnd.dll</c>, <c>payloads/classic.json</c>, <c>proxy.sh</c>) must lie inside the folder the job
    /// runs from once its sources are unpacked; where a source folder exists already, the file must be in it.
    /// </summary>
    private static IEnumerable<string> CheckPlacement(YamlMappingNode job, List<(string Destination, string LocalFolder)> landed, string folder, Dictionary<string, string> variables)
    {
        var executable = Resolve(Scalar(Child(job, "executable"))!, variables);
        var arguments = Scalar(Child(job, "arguments")) is { } text ? Resolve(LiquidTag().Replace(text, " "), variables) : "";
        var files = arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries).Where(LooksLikeFile).ToList();
        if (!executable.StartsWith('/') && !executable.Contains("{{", StringComparison.Ordinal))
        {
            files.Insert(0, executable);
        }

        foreach (var file in files)
        {
            var found = false;
            foreach (var (destination, local) in landed)
            {
                var prefix = destination.Length == 0 ? "" : destination.TrimEnd('/') + "/";
                if (!file.StartsWith(prefix, StringComparison.Ordinal))
                {
                    continue;
                }

                var source = Path.Combine(folder, local);
                found = !Directory.Exists(source) || File.Exists(Path.Combine(source, file[prefix.Length..]));
                if (found)
                {
                    break;
                }
            }

            if (!found)
            {
                var where = string.Join(", ", landed.Select(l => $"'{l.LocalFolder}' into '{(l.Destination.Length == 0 ? "." : l.Destination)}/'"));
                yield return $"names '{file}', which is not where the agent puts the job's files (it unpacks {(where.Length == 0 ? "nothing" : where)} and runs from the job's folder; set destinationFolder: '' or fix the path)";
            }
        }
    }

    /// <summary>A relative path in an argument: no option, URL, address or leftover template, and a file's extension
    /// (a media type such as application/json has none).</summary>
    private static bool LooksLikeFile(string token) =>
        !token.StartsWith('-') && !token.StartsWith('/') && token.IndexOfAny([':', '=', '{', '}', '\'', ',']) < 0
        && FileExtension().IsMatch(token);

    /// <summary>A template with the root variables substituted (recursively, as the job's defaults would be).</summary>
    private static string Resolve(string template, Dictionary<string, string> variables)
    {
        for (var depth = 0; depth < 8 && Variable().IsMatch(template); depth++)
        {
            template = Variable().Replace(template, m => variables.TryGetValue(m.Groups[1].Value, out var value) ? value : m.Value);
        }

        return template;
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

        foreach (var name in Read([template], variables, ifTags: false).Where(name => !variables.ContainsKey(name)))
        {
            yield return $"variable '{name}' is not defined";
        }

        foreach (Match match in IfVariable().Matches(template))
        {
            if (!variables.ContainsKey(match.Groups[1].Value))
            {
                yield return $"variable '{match.Groups[1].Value}' in an if tag is not defined";
            }
        }
    }

    /// <summary>The variables the templates read, directly or through the values of the variables they read (with
    /// <paramref name="ifTags"/>, also those their if tags test).</summary>
    private static HashSet<string> Read(IEnumerable<string> templates, Dictionary<string, string> variables, bool ifTags)
    {
        var read = new HashSet<string>(StringComparer.Ordinal);
        var pending = new Queue<string>(templates);
        while (pending.Count > 0)
        {
            var template = pending.Dequeue();
            var matches = ifTags ? Variable().Matches(template).Concat(IfVariable().Matches(template)) : Variable().Matches(template);
            foreach (var name in matches.Select(m => m.Groups[1].Value))
            {
                if (read.Add(name) && variables.TryGetValue(name, out var value))
                {
                    pending.Enqueue(value);
                }
            }
        }

        return read;
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

    [GeneratedRegex(@"\{%.*?%\}")]
    private static partial Regex LiquidTag();

    [GeneratedRegex(@"\.(dll|exe|sh|json|ndjson|yml|conf)$")]
    private static partial Regex FileExtension();
}
