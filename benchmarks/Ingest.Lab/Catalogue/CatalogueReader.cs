using YamlDotNet.Core;
using YamlDotNet.Serialization;
using YamlDotNet.Serialization.NamingConventions;

namespace Ingest.Lab.Catalogue;

/// <summary>
/// Reads the scenario catalogue from the lab's embedded data files (docs/lab.md#the-catalogue): <c>catalogue.yml</c>
/// names the sets in order, the default load, the presets and the transport lists; <c>Sets/&lt;set&gt;.yml</c> lists a
/// set's scenarios, each a front-end (its back-end follows from it), a load and how it is reached. A key it does not
/// know, a preset or set it cannot find, or a scenario named twice fails with the file and the row.
/// </summary>
internal static class CatalogueReader
{
    /// <summary>The resource names the lab's csproj gives the files.</summary>
    private const string Index = "Catalogue/catalogue.yml";

    private const string SetFolder = "Catalogue/Sets/";

    /// <summary>The loads that forward: a scenario posting to an ingest endpoint has a back-end; the micro endpoints and
    /// the status page are answered by the front-end alone.</summary>
    private const string ForwardingPath = "/ingest/";

    /// <summary>The front-end's own settings, which its back-end does not take: it forwards nothing.</summary>
    private const string FrontEndOnlyPrefix = "Forwarding:";

    /// <summary>The lab's back-ends count events and keep none (the null sink), as the Go back-end does.</summary>
    private const string SinkKey = "Sinks:Default";

    private static readonly IDeserializer Yaml = new DeserializerBuilder()
        .WithNamingConvention(CamelCaseNamingConvention.Instance)
        .Build();

    /// <summary>The catalogue as read: the scenarios in set order, and what the presets and comparisons name.</summary>
    internal sealed class Catalogue(IReadOnlyList<string> sets, IReadOnlyList<Scenario> scenarios,
        IReadOnlyDictionary<string, Preset> presets, IReadOnlyDictionary<string, List<string>> transports,
        IReadOnlyDictionary<string, List<Comparison>> comparisons)
    {
        public IReadOnlyList<string> Sets { get; } = sets;

        public IReadOnlyList<Scenario> Scenarios { get; } = scenarios;

        public Preset Preset(string name) => presets[name];

        public TransportVariant[] TransportList(string name) =>
            [.. transports[name].Select(p => new TransportVariant(p, presets[p].Settings, presets[p].Environment))];

        public IReadOnlyList<Comparison> Comparisons(string set) => comparisons.TryGetValue(set, out var list) ? list : [];
    }

    /// <summary>A named group of settings and environment variables that rows take with <c>use:</c>.</summary>
    internal sealed record Preset((string Key, string Value)[] Settings, (string Key, string Value)[] Environment);

    public static Catalogue Read() => Read(Embedded, typeof(CatalogueReader).Assembly.GetManifestResourceNames());

    /// <summary>The catalogue from <paramref name="files"/> (a resource name's text, null when there is none), given the
    /// names of every file there is.</summary>
    internal static Catalogue Read(Func<string, string?> files, IEnumerable<string> names)
    {
        var index = Deserialize<IndexFile>(files, Index);
        var presets = index.Presets.ToDictionary(p => p.Key, p => new Preset(Pairs(p.Value.Settings, Index, p.Key), Pairs(p.Value.Environment, Index, p.Key)));
        foreach (var (list, transports) in index.Transports)
        {
            var missing = transports.Where(t => !presets.ContainsKey(t)).ToList();
            Require(missing.Count == 0, Index, list, $"names a preset that is not defined: {string.Join(", ", missing)}");
        }

        var setFiles = names.Where(n => n.StartsWith(SetFolder, StringComparison.Ordinal)).ToHashSet();
        var unlisted = setFiles.Select(f => f[SetFolder.Length..^".yml".Length]).Except(index.Sets).ToList();
        Require(unlisted.Count == 0, Index, "sets", $"does not list {string.Join(", ", unlisted.Select(s => $"Sets/{s}.yml"))}");

        var scenarios = new List<Scenario>();
        var comparisons = new Dictionary<string, List<Comparison>>(StringComparer.Ordinal);
        foreach (var set in index.Sets)
        {
            var file = SetFolder + set + ".yml";
            Require(setFiles.Contains(file), Index, "sets", $"lists '{set}', which has no {file}");
            var data = Deserialize<SetFile>(files, file);
            Require(data.Scenarios.Count > 0, file, "scenarios", "lists none");
            var setLoad = Merge(index.Load, data.Load);
            foreach (var row in data.Scenarios)
            {
                Require(!string.IsNullOrEmpty(row.Name) && !string.IsNullOrEmpty(row.Title), file, row.Name ?? "a row", "needs a name and a title");
                Require(!scenarios.Any(s => s.Set == set && s.Name == row.Name), file, row.Name!, "is named twice");
                scenarios.Add(Build(set, row, setLoad, presets, file));
            }

            if (data.Comparisons is { } pairs)
            {
                comparisons[set] = [.. pairs.Connections.SelectMany(c => pairs.Pairs.Select(p =>
                    new Comparison(p.Question, $"{p.Subject}-c{c}", $"{p.Baseline}-c{c}")))];
            }
        }

        return new Catalogue(index.Sets, scenarios, presets, index.Transports, comparisons);
    }

    private static Scenario Build(string set, Row row, LoadData setLoad, Dictionary<string, Preset> presets, string file)
    {
        var settings = new Dictionary<string, string>(StringComparer.Ordinal);
        var environment = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var name in row.Use)
        {
            Require(presets.TryGetValue(name, out var preset), file, row.Name!, $"uses '{name}', which catalogue.yml's presets do not define");
            Add(settings, preset!.Settings);
            Add(environment, preset.Environment);
        }

        Add(settings, Pairs(row.Settings, file, row.Name!));
        Add(environment, Pairs(row.Environment, file, row.Name!));
        var frontEnd = new ServiceSpec(row.Implementation)
        {
            Settings = settings,
            Environment = environment,
            NativeAot = row.NativeAot,
            Trimmed = row.Trimmed,
            ProfileGuided = row.ProfileGuided,
            ShippedProfile = row.ShippedProfile,
        };
        var load = Merge(setLoad, row.Load);
        Require(load is { Path: not null, Payload: not null, Connections: not null }, file, row.Name!, "has a load without a path, payload or connection count");
        var spec = new LoadSpec(load.Path!, load.Payload!.Value, load.Connections!.Value) { Pipeline = load.Pipeline ?? 1, Rate = load.Rate };
        return new Scenario(set, row.Name!, row.Title!)
        {
            FrontEnd = frontEnd,
            BackEnd = spec.Path.StartsWith(ForwardingPath, StringComparison.Ordinal)
                ? BackEndOf(frontEnd).With(Pairs(row.BackEndSettings, file, row.Name!))
                : null,
            Load = spec,
            FrontDoor = row.FrontDoor,
            FrontEndInstances = row.FrontEndInstances,
            Stores = row.Stores,
            MinimumWarmup = TimeSpan.FromSeconds(row.MinimumWarmup),
        };
    }

    /// <summary>
    /// The back-end a front-end forwards to, as the two halves of one deployment would run: a .NET front-end's is the
    /// same build with the same settings but the forwarding ones, the same environment, on the null sink; a peer's is
    /// the same peer with none of the front-end's flags (they are its client's).
    /// </summary>
    private static ServiceSpec BackEndOf(ServiceSpec frontEnd) => frontEnd.Implementation != Implementation.DotNet
        ? new ServiceSpec(frontEnd.Implementation)
        : frontEnd with
        {
            Settings = new[] { new KeyValuePair<string, string>(SinkKey, "Null") }
                .Concat(frontEnd.Settings.Where(s => !s.Key.StartsWith(FrontEndOnlyPrefix, StringComparison.Ordinal)))
                .ToDictionary(StringComparer.Ordinal),
        };

    private static LoadData Merge(LoadData under, LoadData? over) => over is null ? under : new LoadData
    {
        Path = over.Path ?? under.Path,
        Payload = over.Payload ?? under.Payload,
        Connections = over.Connections ?? under.Connections,
        Pipeline = over.Pipeline ?? under.Pipeline,
        Rate = over.Rate ?? under.Rate,
    };

    private static void Add(Dictionary<string, string> into, (string Key, string Value)[] pairs)
    {
        foreach (var (key, value) in pairs)
        {
            into[key] = value;
        }
    }

    /// <summary>A mapping's pairs in file order; a value YAML reads as null (<c>Null</c>, <c>~</c>) must be quoted.</summary>
    private static (string Key, string Value)[] Pairs(Dictionary<string, string?>? map, string file, string row)
    {
        foreach (var (key, value) in map ?? [])
        {
            Require(value is not null, file, row, $"gives '{key}' no value (quote a value YAML reads as null, such as 'Null')");
        }

        return [.. (map ?? []).Select(p => (p.Key, p.Value!))];
    }

    private static string? Embedded(string resource)
    {
        using var stream = typeof(CatalogueReader).Assembly.GetManifestResourceStream(resource);
        return stream is null ? null : new StreamReader(stream).ReadToEnd();
    }

    private static T Deserialize<T>(Func<string, string?> files, string resource)
    {
        var text = files(resource) ?? throw new InvalidOperationException($"The lab carries no {resource}: the csproj embeds the catalogue's files.");
        try
        {
            return Yaml.Deserialize<T>(text);
        }
        catch (YamlException e)
        {
            throw new InvalidOperationException($"{resource} ({e.Start}): {e.InnerException?.Message ?? e.Message}", e);
        }
    }

    private static void Require(bool condition, string file, string where, string problem)
    {
        if (!condition)
        {
            throw new InvalidOperationException($"{file}, {where}: {problem}.");
        }
    }

    // The files' shapes, as YamlDotNet fills them (camelCase keys; a key not here fails the read).
    private sealed class IndexFile
    {
        public List<string> Sets { get; set; } = [];

        public LoadData Load { get; set; } = new();

        public Dictionary<string, PresetData> Presets { get; set; } = [];

        public Dictionary<string, List<string>> Transports { get; set; } = [];
    }

    private sealed class PresetData
    {
        public Dictionary<string, string?>? Settings { get; set; }

        public Dictionary<string, string?>? Environment { get; set; }
    }

    private sealed class SetFile
    {
        public LoadData? Load { get; set; }

        public List<Row> Scenarios { get; set; } = [];

        public ComparisonData? Comparisons { get; set; }
    }

    private sealed class Row
    {
        public string? Name { get; set; }

        public string? Title { get; set; }

        public Implementation Implementation { get; set; } = Implementation.DotNet;

        public List<string> Use { get; set; } = [];

        public Dictionary<string, string?>? Settings { get; set; }

        public Dictionary<string, string?>? Environment { get; set; }

        public bool NativeAot { get; set; }

        public bool Trimmed { get; set; }

        public bool ProfileGuided { get; set; }

        public bool ShippedProfile { get; set; } = true;

        /// <summary>What the back-end takes besides what follows from the front-end (a sink).</summary>
        public Dictionary<string, string?>? BackEndSettings { get; set; }

        public LoadData? Load { get; set; }

        public FrontDoor FrontDoor { get; set; } = FrontDoor.Direct;

        public int FrontEndInstances { get; set; } = 1;

        public List<StoreKind> Stores { get; set; } = [];

        /// <summary>Seconds.</summary>
        public int MinimumWarmup { get; set; }
    }

    private sealed class LoadData
    {
        public string? Path { get; set; }

        public PayloadKind? Payload { get; set; }

        public int? Connections { get; set; }

        public int? Pipeline { get; set; }

        public double? Rate { get; set; }
    }

    private sealed class ComparisonData
    {
        public List<int> Connections { get; set; } = [];

        public List<PairData> Pairs { get; set; } = [];
    }

    private sealed class PairData
    {
        public string Question { get; set; } = "";

        public string Subject { get; set; } = "";

        public string Baseline { get; set; } = "";
    }
}
