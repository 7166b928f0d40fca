using System.Globalization;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Running;
using YamlDotNet.Serialization;
using YamlDotNet.Serialization.NamingConventions;

namespace Ingest.Lab.Crank;

/// <summary>
/// Writes crank/ingest.benchmarks.yml from the lab's catalogue: one Crank scenario per lab scenario with the same
/// settings as variables, importing crank/ingest.base.yml, the hand-written variables, jobs (prebuilt apps started with
/// an absolute path to dotnet, so agents need no SDK download) and profiles. Generated, never edited by hand: a test
/// fails when the committed file differs from what the catalogue produces, so the two cannot drift.
/// </summary>
internal static class CrankConfig
{
    /// <summary>The file Crank is given: the generated scenarios, importing <see cref="BaseFileName"/>.</summary>
    public const string FileName = "ingest.benchmarks.yml";

    /// <summary>The hand-written half: variables, counters, jobs, profiles.</summary>
    public const string BaseFileName = "ingest.base.yml";

    /// <summary>How the scenarios file names the base: Crank resolves an import from its working directory, not from the
    /// importing file (its LoadConfigurationAsync reads the path as given), so the path is the repository root's, where the
    /// docs and scripts run it.</summary>
    public const string BaseImport = "crank/" + BaseFileName;

    /// <summary>Crank variable for each service setting the catalogue uses; a setting missing here fails generation.</summary>
    private static readonly Dictionary<string, string> Variables = new(StringComparer.Ordinal)
    {
        ["Ingest:Serializer"] = "serializer",
        ["Ingest:ApiStyle"] = "apiStyle",
        ["Forwarding:ClientStrategy"] = "clientStrategy",
        ["Forwarding:Mode"] = "forwardingMode",
        ["Forwarding:MaxConnectionsPerServer"] = "maxConnectionsPerServer",
        ["Forwarding:RetryAttempts"] = "retryAttempts",
        ["Forwarding:BreakerBreakSeconds"] = "breakerBreakSeconds",
        ["Forwarding:AttemptTimeoutMilliseconds"] = "attemptTimeoutMs",
        ["Kestrel:Transport"] = "transport",
        ["Kestrel:Sockets:UnsafePreferInlineScheduling"] = "socketsInlineScheduling",
        ["Kestrel:LinuxEpoll:AioReceive"] = "epollAioReceive",
        ["Kestrel:LinuxEpoll:AioSend"] = "epollAioSend",
        ["Kestrel:IoUring:DeferTaskRun"] = "ioUringDeferTaskRun",
        ["Kestrel:LinuxEpoll:ApplicationSchedulingMode"] = "epollScheduling",
        ["Kestrel:IoUring:ApplicationSchedulingMode"] = "ioUringScheduling",
        ["DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS"] = "socketsInlineCompletions",
        ["Sinks:Default"] = "sink",
        ["client"] = "goClient",
        ["DOTNET_gcServer"] = "gcServer",
        ["DOTNET_GCDynamicAdaptationMode"] = "gcDynamicAdaptationMode",
        ["DOTNET_GCgen0size"] = "gcGen0Size",
        ["DOTNET_GCRegionSize"] = "gcRegionSize",
        ["DOTNET_SYSTEM_BUFFERS_SHAREDARRAYPOOL_MAXARRAYSPERPARTITION"] = "arrayPoolArraysPerCore",
        ["DOTNET_gcConcurrent"] = "gcConcurrent",
        ["DOTNET_TieredPGO"] = "tieredPgo",
        ["Memory__ReleaseStartupPagesAfterSeconds"] = "releaseStartupPagesAfterSeconds",
    };

    /// <summary>The first warm-up phase of the load job (the root variable <c>warmup</c>), as the lab's default.</summary>
    private static readonly TimeSpan DefaultWarmup = new LabOptions().Warmup;

    /// <summary>The scenario the README's Crank command runs: the default configuration, the classic payload.</summary>
    public const string IngestScenario = "ingest";

    /// <summary>The source folders crank/publish.sh creates (relative to the configuration, as the jobs name them).</summary>
    public static readonly IReadOnlySet<string> PublishedFolders = new HashSet<string>(StringComparer.Ordinal)
    {
        "../artifacts/crank/Ingest.BackEnd",
        "../artifacts/crank/Ingest.FrontEnd",
        "../artifacts/crank/Ingest.LoadGen",
        "../artifacts/crank/Ingest.BackEnd-aot",
        "../artifacts/crank/Ingest.FrontEnd-aot",
        "../artifacts/crank/Ingest.BackEnd-trimmed",
        "../artifacts/crank/Ingest.FrontEnd-trimmed",
        "../artifacts/crank/go",
        "../artifacts/crank/rust",
    };

    public static string ScenarioName(Scenario scenario) => $"{scenario.Set}-{scenario.Name}";

    /// <summary>Whether a scenario has a Crank twin: not when it needs a store (PostgreSQL, Redis, a directory), which
    /// the lab starts for it but a Crank agent would need as a job of its own, nor in the Red Hat head-to-head, whose
    /// transport needs a package Crank's publish is not given (its other rows are the transports set's), nor when a
    /// service is profile-guided Native AOT: its build needs a training run of the same scenario on the same machine first
    /// (Running/ProfileTraining), which the lab does and crank/publish.sh, building once for every job, does not; nor when
    /// a Native AOT service is built without the profile it ships, which crank/publish.sh's one Native AOT build has; nor
    /// the floor (nginx to nginx): it counts nothing for the load job's loss check, and it is the lab's reference for the
    /// one machine the lab runs on.</summary>
    public static bool Covers(Scenario scenario) =>
        scenario.FrontEnd.Implementation != Implementation.Nginx && scenario.Stores.Count == 0 && scenario.Set != ScenarioCatalogue.RedHatSet && !ProfileTraining.Needs(scenario)
        && scenario.FrontEnd.ShippedProfile && scenario.BackEnd is not { ShippedProfile: false };

    /// <summary>The scenarios file: one Crank scenario per lab scenario it <see cref="Covers"/>, and <see cref="IngestScenario"/>,
    /// each service naming its job in <see cref="BaseFileName"/> and the variables it turns.</summary>
    public static string Generate(IReadOnlyList<Scenario> scenarios)
    {
        var crank = new Dictionary<string, Dictionary<string, Service>>(StringComparer.Ordinal)
        {
            [IngestScenario] = Services(scenarios.First(s => s.Set == "classic" && s.Name == "aspnet-static-c50")),
        };
        foreach (var scenario in scenarios.Where(Covers))
        {
            crank[ScenarioName(scenario)] = Services(scenario);
        }

        return Header + Yaml.Serialize(new { Imports = new[] { BaseImport } }) + "\n" + Yaml.Serialize(new { Scenarios = crank });
    }

    /// <summary>The variables a service of <paramref name="spec"/> runs with, by Crank variable name. A service run with an
    /// environment name (<c>--environment Fastest</c>) gets the settings of its shipped appsettings.{name}.json as
    /// variables, since the jobs pass every knob on the command line, which would override the file; the committed
    /// configuration is checked against this, so it follows the file.</summary>
    public static SortedDictionary<string, string> ServiceVariables(ServiceSpec spec, ServiceRole role)
    {
        var variables = new SortedDictionary<string, string>(StringComparer.Ordinal);
        var preset = spec.Settings.TryGetValue(EnvironmentSetting, out var environment) ? EnvironmentSettings(role, environment) : [];
        foreach (var (key, value) in preset.Concat(spec.Settings.Where(s => s.Key != EnvironmentSetting)).Concat(spec.Environment))
        {
            if (!Variables.TryGetValue(key, out var name))
            {
                throw new InvalidOperationException($"The lab setting '{key}' has no Crank variable: add it to {nameof(CrankConfig)}.{nameof(Variables)} and to the jobs of crank/{BaseFileName}.");
            }

            variables[name] = value;
        }

        return variables;
    }

    private const string EnvironmentSetting = "environment";

    /// <summary>The settings of a service's appsettings.{environment}.json, flattened to configuration keys.</summary>
    private static List<KeyValuePair<string, string>> EnvironmentSettings(ServiceRole role, string environment)
    {
        var file = Path.Combine(RepositoryLayout.Find().Root, "src", role.Project(), $"appsettings.{environment}.json");
        if (!File.Exists(file))
        {
            throw new InvalidOperationException($"The lab runs the {role} with --environment {environment}, but {file} does not exist.");
        }

        using var json = System.Text.Json.JsonDocument.Parse(File.ReadAllText(file));
        var settings = new List<KeyValuePair<string, string>>();
        Flatten(json.RootElement, "", settings);
        return settings;
    }

    private static void Flatten(System.Text.Json.JsonElement element, string prefix, List<KeyValuePair<string, string>> settings)
    {
        if (element.ValueKind == System.Text.Json.JsonValueKind.Object)
        {
            foreach (var property in element.EnumerateObject())
            {
                Flatten(property.Value, prefix.Length == 0 ? property.Name : $"{prefix}:{property.Name}", settings);
            }
        }
        else
        {
            settings.Add(new(prefix, element.ToString()));
        }
    }

    /// <summary>The load generator's variables for a scenario.</summary>
    public static SortedDictionary<string, string> LoadVariables(LoadSpec load) => new(StringComparer.Ordinal)
    {
        ["path"] = load.Path,
        ["connections"] = load.Connections.ToString(CultureInfo.InvariantCulture),
        ["pipeline"] = load.Pipeline.ToString(CultureInfo.InvariantCulture),
        ["payload"] = load.Payload switch
        {
            PayloadKind.Classic => "classic.json",
            PayloadKind.Batch100 => "batch100.json",
            PayloadKind.Batch100Ndjson => "batch100.ndjson",
            _ => "none",
        },
        ["contentType"] = load.ContentType,
        ["eventsPerRequest"] = load.EventsPerRequest.ToString(CultureInfo.InvariantCulture),
    };

    private static Dictionary<string, Service> Services(Scenario scenario)
    {
        var services = new Dictionary<string, Service>(StringComparer.Ordinal);
        if (scenario.BackEnd is { } backEnd)
        {
            services["backend"] = new(Job(backEnd, frontEnd: false), ServiceVariables(backEnd, ServiceRole.BackEnd));
        }

        var application = ServiceVariables(scenario.FrontEnd, ServiceRole.FrontEnd);
        for (var i = 1; i <= scenario.FrontEndInstances; i++)
        {
            var variables = new SortedDictionary<string, string>(application, StringComparer.Ordinal);
            if (i > 1)
            {
                variables["serverPort"] = InstancePort(i).ToString(CultureInfo.InvariantCulture);
            }

            services[i == 1 ? "application" : $"application{i}"] = new(Job(scenario.FrontEnd, frontEnd: true), variables);
        }

        var load = LoadVariables(scenario.Load);
        if (scenario.MinimumWarmup > DefaultWarmup)
        {
            // As the lab does: the first warm-up phase is at least what the scenario needs (the blocking client).
            load["warmup"] = scenario.MinimumWarmup.TotalSeconds.ToString(CultureInfo.InvariantCulture);
        }

        if (scenario.FrontDoor != FrontDoor.Direct)
        {
            var upstreams = string.Join(",", Enumerable.Range(1, scenario.FrontEndInstances).Select(i => $"{{{{serverAddress}}}}:{InstancePort(i)}"));
            services["proxy"] = new(scenario.FrontDoor == FrontDoor.Nginx ? "nginx-proxy" : "caddy-proxy",
                new SortedDictionary<string, string>(StringComparer.Ordinal) { ["upstreams"] = upstreams });
            load["targetPort"] = "{{proxyPort}}";
        }

        services["load"] = new("ingest-loadgen", load);
        return services;
    }

    /// <summary>Where front-end instance <paramref name="instance"/> (from 1) listens: the root serverPort (5000) for the
    /// first, then 5100, 5200: clear of the back-end (5001), the proxy (8080) and the agents (5010), which all share
    /// one host in the local profile.</summary>
    public static int InstancePort(int instance) => instance == 1 ? 5000 : 5000 + (100 * (instance - 1));

    private static string Job(ServiceSpec spec, bool frontEnd) => spec.Implementation switch
    {
        Implementation.GoNetHttp => frontEnd ? "go-frontend" : "go-backend",
        Implementation.GoFastHttp => frontEnd ? "go-fasthttp-frontend" : "go-fasthttp-backend",
        Implementation.RustHyper => frontEnd ? "rust-frontend" : "rust-backend",
        Implementation.Nginx => throw new InvalidOperationException("The floor has no Crank job (see Covers)."),
        _ => (frontEnd ? "ingest-frontend" : "ingest-backend") + (spec.NativeAot ? "-aot" : spec.Trimmed ? "-trimmed" : ""),
    };

    /// <summary>A scenario's service: the job of ingest.base.yml it runs, and the variables it sets (none is left out).</summary>
    private sealed record Service(string Job, SortedDictionary<string, string> Variables);

    /// <summary>Every variable a string, as the jobs read them; quoted where YAML would read another type ('Null', '50').</summary>
    private static readonly ISerializer Yaml = new SerializerBuilder()
        .WithNamingConvention(CamelCaseNamingConvention.Instance)
        .ConfigureDefaultValuesHandling(DefaultValuesHandling.OmitEmptyCollections)
        .WithQuotingNecessaryStrings()
        .WithIndentedSequences()
        .Build();

    private const string Header = """
        # Generated by `dotnet run --project benchmarks/Ingest.Lab -- crank` from the lab's scenario catalogue
        # (benchmarks/Ingest.Lab/Catalogue). Do not edit: a test fails when this file differs from what the catalogue
        # produces. The variables, jobs and profiles are ingest.base.yml's, edited by hand (docs/crank.md).
        #
        # Run from the repository root (Crank reads `imports:` relative to its working directory):
        #   crank --config crank/ingest.benchmarks.yml --scenario ingest --profile local
        # after `bash crank/publish.sh`, which builds every job's application into artifacts/crank/.


        """;
}
