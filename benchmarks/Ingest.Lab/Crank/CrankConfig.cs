using System.Globalization;
using System.Text;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Running;

namespace Ingest.Lab.Crank;

/// <summary>
/// Writes crank/ingest.benchmarks.yml from the lab's catalogue: the jobs (prebuilt apps started with an
/// absolute path to dotnet, so agents need no SDK download), one Crank scenario per lab scenario with the same
/// settings as variables, and the local and remote profiles. Generated, never edited by hand: a test fails
/// when the committed file differs from what the catalogue produces, so the two cannot drift.
/// </summary>
internal static class CrankConfig
{
    public const string FileName = "ingest.benchmarks.yml";

    /// <summary>Crank variable for each service setting the catalogue uses; a setting missing here fails generation.</summary>
    private static readonly Dictionary<string, string> Variables = new(StringComparer.Ordinal)
    {
        ["Ingest:Serializer"] = "serializer",
        ["Ingest:ApiStyle"] = "apiStyle",
        ["Forwarding:ClientStrategy"] = "clientStrategy",
        ["Forwarding:Mode"] = "forwardingMode",
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

    public static string Generate(IReadOnlyList<Scenario> scenarios)
    {
        var yml = new StringBuilder();
        yml.Append(Header).AppendLine();
        WriteCounters(yml);
        yml.Append(JobsHeader).Append(DotNetJobs()).Append(Jobs);
        yml.AppendLine("scenarios:");
        var ingest = scenarios.First(s => s.Set == "classic" && s.Name == "aspnet-static-c50");
        WriteScenario(yml, IngestScenario, ingest);
        foreach (var scenario in scenarios.Where(Covers))
        {
            WriteScenario(yml, ScenarioName(scenario), scenario);
        }

        yml.AppendLine();
        yml.Append(Profiles).Append('\n');
        return yml.ToString();
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
                throw new InvalidOperationException($"The lab setting '{key}' has no Crank variable: add it to {nameof(CrankConfig)}.{nameof(Variables)} and to the jobs.");
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

    private static void WriteScenario(StringBuilder yml, string name, Scenario scenario)
    {
        yml.AppendLine(CultureInfo.InvariantCulture, $"  {name}:");
        if (scenario.BackEnd is { } backEnd)
        {
            WriteService(yml, "backend", Job(backEnd, frontEnd: false), ServiceVariables(backEnd, ServiceRole.BackEnd));
        }

        var application = ServiceVariables(scenario.FrontEnd, ServiceRole.FrontEnd);
        for (var i = 1; i <= scenario.FrontEndInstances; i++)
        {
            var service = i == 1 ? "application" : $"application{i}";
            var variables = new SortedDictionary<string, string>(application, StringComparer.Ordinal);
            if (i > 1)
            {
                variables["serverPort"] = InstancePort(i).ToString(CultureInfo.InvariantCulture);
            }

            WriteService(yml, service, Job(scenario.FrontEnd, frontEnd: true), variables);
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
            WriteService(yml, "proxy", scenario.FrontDoor == FrontDoor.Nginx ? "nginx-proxy" : "caddy-proxy",
                new SortedDictionary<string, string>(StringComparer.Ordinal) { ["upstreams"] = upstreams });
            load["targetPort"] = "{{proxyPort}}";
        }

        WriteService(yml, "load", "ingest-loadgen", load);
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

    private static void WriteService(StringBuilder yml, string service, string job, SortedDictionary<string, string> variables)
    {
        yml.AppendLine(CultureInfo.InvariantCulture, $"    {service}:");
        yml.AppendLine(CultureInfo.InvariantCulture, $"      job: {job}");
        if (variables.Count == 0)
        {
            return;
        }

        yml.AppendLine("      variables:");
        foreach (var (key, value) in variables)
        {
            yml.AppendLine(CultureInfo.InvariantCulture, $"        {key}: {Quote(value)}");
        }
    }

    private static string Quote(string value) => "'" + value.Replace("'", "''", StringComparison.Ordinal) + "'";

    private const string Header = """
        # Generated by `dotnet run --project benchmarks/Ingest.Lab -- crank` from the lab's scenario catalogue.
        # Do not edit: a test fails when this file differs from what the catalogue produces. See docs/crank.md.
        #
        # Run:  crank --config crank/ingest.benchmarks.yml --scenario ingest --profile local
        # after `bash crank/publish.sh`, which builds every job's application into artifacts/crank/.

        variables:
          # The dotnet host, by absolute path: the agent then runs the prebuilt apps without any SDK download.
          # Override with --variable dotnetPath=/path/to/dotnet where it lives elsewhere.
          dotnetPath: /usr/bin/dotnet
          # Where the front-end listens, as the load generator reaches it, and where the back-end listens, as
          # the front-end reaches it (the remote profile sets both to the machines' addresses).
          serverAddress: 127.0.0.1
          serverPort: 5000
          backendAddress: 127.0.0.1
          backendPort: 5001
          proxyPort: 8080
          # The knobs, with the services' defaults; every scenario overrides what it turns.
          serializer: SystemTextJsonSourceGen
          apiStyle: Minimal
          clientStrategy: Static
          forwardingMode: PerEvent
          retryAttempts: 2
          breakerBreakSeconds: 5
          attemptTimeoutMs: 2000
          transport: Sockets
          socketsInlineScheduling: false
          socketsInlineCompletions: 0
          epollAioReceive: false
          epollAioSend: false
          ioUringDeferTaskRun: false
          epollScheduling: ThreadPool
          ioUringScheduling: ThreadPool
          sink: Memory
          gcServer: 0
          gcDynamicAdaptationMode: 1
          gcGen0Size: 0
          # The GC's region size (hexadecimal bytes); 0 leaves the GC's choice (4 MB on a host without a memory limit).
          gcRegionSize: 0
          # Free arrays per size and core in the shared ArrayPool; 0 leaves the runtime's 32.
          arrayPoolArraysPerCore: 0
          gcConcurrent: 1
          tieredPgo: 1
          # Seconds into serving at which a service pages out its program file's start-up pages; 0 = never.
          releaseStartupPagesAfterSeconds: 0
          goClient: pooled
          # The load: closed loop, as the lab's runs.
          path: /ingest/event
          payload: classic.json
          contentType: application/json
          # Events in each request of the payload; the load job compares what it saw acknowledged with what the
          # back-end persisted (--loss-check) unless it is 0 (no payload, no back-end).
          eventsPerRequest: '1'
          connections: 50
          pipeline: 1
          # The warm-up is the lab's: after `warmup` seconds it goes on in 2 s slices while the rate still rises by
          # more than 5%, up to `warmupLimit` seconds (set both equal for a fixed one); then `duration` is measured.
          warmup: 2
          warmupLimit: 30
          duration: 15
          targetPort: '{{serverPort}}'

        """;

    /// <summary>The <c>Ingest-Counters</c> counters: name, description, and how a run's samples reduce to one figure
    /// (the rates' peak, the totals' last value summed over instances). Written as Crank's <c>counters:</c> and
    /// <c>results:</c> sections, which must name each one alike.</summary>
    private static readonly (string Name, string Description, string Result, string Reduce)[] IngestCounters =
    [
        ("requests-per-second", "Ingest requests answered per second", "Max ingest requests/s", "max"),
        ("total-requests", "Ingest requests answered", "Ingest requests", "sum"),
        ("failed-requests", "Ingest requests answered with a problem", "Failed ingest requests", "sum"),
        ("events-per-second", "Events acknowledged per second", "Max events/s", "max"),
        ("total-events", "Events acknowledged", "Events acknowledged", "sum"),
    ];

    private static void WriteCounters(StringBuilder yml)
    {
        yml.Append("""
            # The services' own counters (src/Ingest.Hosting/Metrics/IngestCounters.cs): Crank knows System.Runtime's, these it
            # learns here, and the results below put them in the application and back-end tables.
            counters:
              - provider: Ingest-Counters
                values:

            """);
        foreach (var (name, description, _, _) in IngestCounters)
        {
            yml.Append(CultureInfo.InvariantCulture, $"""
                      - name: {name}
                        measurement: ingest-counter/{name}
                        description: {description}

                """);
        }

        yml.AppendLine().AppendLine("results:");
        foreach (var (name, _, result, reduce) in IngestCounters)
        {
            yml.Append(CultureInfo.InvariantCulture, $"""
                  - name: ingest-counter/{name}
                    measurement: ingest-counter/{name}
                    description: {result}
                    format: n0
                    aggregate: max
                    reduce: {reduce}

                """);
        }

        yml.AppendLine();
    }

    private const string JobsHeader = """
        # Every source unpacks into the job's own folder (destinationFolder: ''), where the agent starts it: by default
        # the agent unpacks a source into a subfolder named after it, and the relative names below (Ingest.BackEnd.dll,
        # payloads/..., proxy.sh, the Go, trimmed and AOT executables) would not be found.
        jobs:

        """;

    /// <summary>How a .NET service's build is started: the JIT build's dll through the dotnet host, or the self-contained
    /// executable of a trimmed or Native AOT build (crank/publish.sh). Every build takes the same settings, so a scenario's
    /// variables mean the same whichever build its services are (CrankValidator fails a variable a job does not use). The
    /// runtime's counters reach Crank over EventPipe, which a Native AOT build leaves out.</summary>
    private static readonly (string Suffix, bool Executable, bool Counters)[] Builds = [("", false, true), ("-trimmed", true, true), ("-aot", true, false)];

    private static string DotNetJobs()
    {
        var jobs = new StringBuilder();
        foreach (var (suffix, executable, counters) in Builds)
        {
            foreach (var (job, app, listen) in new[]
            {
                ("ingest-backend", "Ingest.BackEnd", "--urls http://{{backendAddress}}:{{backendPort}}"),
                ("ingest-frontend", "Ingest.FrontEnd", "--urls http://{{serverAddress}}:{{serverPort}}\n      --Forwarding:BackEnds:0 http://{{backendAddress}}:{{backendPort}}"),
            })
            {
                var role = app == "Ingest.BackEnd" ? BackEndArguments : FrontEndArguments;
                jobs.Append(CultureInfo.InvariantCulture, $"""
                      {job}{suffix}:
                        sources:
                          app:
                            localFolder: ../artifacts/crank/{app}{suffix}
                            destinationFolder: ''
                        executable: {(executable ? app : "'{{dotnetPath}}'")}
                        arguments: >-
                          {(executable ? "" : app + ".dll ")}{listen}
                          {ServiceArguments}
                          {role}
                        environmentVariables:
                    {ServiceEnvironment}
                        readyStateText: Application started.{(counters ? "\n" + Counters : "")}


                    """);
            }
        }

        return jobs.ToString();
    }

    private const string Counters = """
            # Counters only: Microsoft.AspNetCore.Hosting and Microsoft-AspNetCore-Server-Kestrel would also turn on their
            # per-request events and cost a third of the throughput each here (docs/crank.md); add them on the command line
            # (--application.options.counterProviders Microsoft.AspNetCore.Hosting) when you want them anyway.
            options:
              counterProviders:
                - System.Runtime
                - Ingest-Counters
        """;

    private const string ServiceArguments = """
        --Ingest:Serializer {{serializer}} --Ingest:ApiStyle {{apiStyle}} --Kestrel:Transport {{transport}}
              --Kestrel:Sockets:UnsafePreferInlineScheduling {{socketsInlineScheduling}}
              --Kestrel:LinuxEpoll:AioReceive {{epollAioReceive}} --Kestrel:LinuxEpoll:AioSend {{epollAioSend}}
              --Kestrel:IoUring:DeferTaskRun {{ioUringDeferTaskRun}}
              --Kestrel:LinuxEpoll:ApplicationSchedulingMode {{epollScheduling}} --Kestrel:IoUring:ApplicationSchedulingMode {{ioUringScheduling}}
        """;

    private const string BackEndArguments = "--Sinks:Default {{sink}}";

    private const string FrontEndArguments = """
        --Forwarding:ClientStrategy {{clientStrategy}} --Forwarding:Mode {{forwardingMode}}
              --Forwarding:RetryAttempts {{retryAttempts}} --Forwarding:BreakerBreakSeconds {{breakerBreakSeconds}}
              --Forwarding:AttemptTimeoutMilliseconds {{attemptTimeoutMs}}
        """;

    private const string ServiceEnvironment = """
              DOTNET_gcServer: '{{gcServer}}'
              DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS: '{{socketsInlineCompletions}}'
              DOTNET_GCDynamicAdaptationMode: '{{gcDynamicAdaptationMode}}'
              DOTNET_GCgen0size: '{{gcGen0Size}}'
              DOTNET_GCRegionSize: '{{gcRegionSize}}'
              DOTNET_SYSTEM_BUFFERS_SHAREDARRAYPOOL_MAXARRAYSPERPARTITION: '{{arrayPoolArraysPerCore}}'
              DOTNET_gcConcurrent: '{{gcConcurrent}}'
              DOTNET_TieredPGO: '{{tieredPgo}}'
              Memory__ReleaseStartupPagesAfterSeconds: '{{releaseStartupPagesAfterSeconds}}'
        """;

    private const string Jobs = """
          go-backend:
            sources:
              app:
                localFolder: ../artifacts/crank/go
                destinationFolder: ''
            executable: ingest-go
            arguments: -role backend -listen {{backendAddress}}:{{backendPort}}
            readyStateText: Application started.

          go-frontend:
            sources:
              app:
                localFolder: ../artifacts/crank/go
                destinationFolder: ''
            executable: ingest-go
            arguments: -role frontend -listen {{serverAddress}}:{{serverPort}} -backends http://{{backendAddress}}:{{backendPort}} -client {{goClient}}
            readyStateText: Application started.

          go-fasthttp-frontend:
            sources:
              app:
                localFolder: ../artifacts/crank/go
                destinationFolder: ''
            executable: ingest-go-fasthttp
            arguments: -role frontend -listen {{serverAddress}}:{{serverPort}} -backends http://{{backendAddress}}:{{backendPort}} -client {{goClient}}
            readyStateText: Application started.

          go-fasthttp-backend:
            sources:
              app:
                localFolder: ../artifacts/crank/go
                destinationFolder: ''
            executable: ingest-go-fasthttp
            arguments: -role backend -listen {{backendAddress}}:{{backendPort}}
            readyStateText: Application started.

          rust-backend:
            sources:
              app:
                localFolder: ../artifacts/crank/rust
                destinationFolder: ''
            executable: ingest-rust
            arguments: -role backend -listen {{backendAddress}}:{{backendPort}}
            readyStateText: Application started.

          rust-frontend:
            sources:
              app:
                localFolder: ../artifacts/crank/rust
                destinationFolder: ''
            executable: ingest-rust
            arguments: -role frontend -listen {{serverAddress}}:{{serverPort}} -backends http://{{backendAddress}}:{{backendPort}}
            readyStateText: Application started.

          nginx-proxy:
            sources:
              app:
                localFolder: jobs
                destinationFolder: ''
            executable: /bin/bash
            arguments: proxy.sh nginx {{serverAddress}}:{{proxyPort}} {{upstreams}}
            readyStateText: Proxy started.

          caddy-proxy:
            sources:
              app:
                localFolder: jobs
                destinationFolder: ''
            executable: /bin/bash
            arguments: proxy.sh caddy {{serverAddress}}:{{proxyPort}} {{upstreams}}
            readyStateText: Proxy started.

          # Ingest's own load generator: reports to Crank with the statistics block (--crank), and after the load reads
          # the back-end's persisted total: a job that finds an acknowledged event missing exits non-zero, so Crank fails.
          ingest-loadgen:
            sources:
              app:
                localFolder: ../artifacts/crank/Ingest.LoadGen
                destinationFolder: ''
            executable: '{{dotnetPath}}'
            arguments: >-
              Ingest.LoadGen.dll --url http://{{serverAddress}}:{{targetPort}}{{path}} -c {{connections}}
              --pipeline {{pipeline}} --warmup {{warmup}}s --warmup-limit {{warmupLimit}}s -d {{duration}}s
              {% if payload != 'none' %}--body payloads/{{payload}} --content-type {{contentType}}{% endif %}
              {% if eventsPerRequest != '0' %}--loss-check http://{{backendAddress}}:{{backendPort}} --events-per-request {{eventsPerRequest}}{% endif %}
              --crank
            isConsoleApp: true
            waitForExit: true


        """;

    private const string Profiles = """
        profiles:
          # One agent on this machine: crank-agent --url http://127.0.0.1:5010 (crank/run-local.sh starts it).
          local:
            variables:
              serverAddress: 127.0.0.1
              backendAddress: 127.0.0.1
            jobs:
              backend:
                endpoints:
                  - http://127.0.0.1:5010
              application:
                endpoints:
                  - http://127.0.0.1:5010
              application2:
                endpoints:
                  - http://127.0.0.1:5010
              application3:
                endpoints:
                  - http://127.0.0.1:5010
              proxy:
                endpoints:
                  - http://127.0.0.1:5010
              load:
                endpoints:
                  - http://127.0.0.1:5010

          # Application, back-end and load on separate machines. Crank adds the agents' URLs given on the command
          # line to the profile's own and probes every one before it starts, so this profile names each agent with
          # no URL and the command line gives them all (docs/remote-agents.md; crank/run-netns.sh does it on one machine):
          #   --variable serverAddress=<application host IP> --variable backendAddress=<back-end host IP>
          #   --application.endpoints http://<application host>:5010 --backend.endpoints http://<back-end host>:5010
          #   --load.endpoints http://<load host>:5010, and --application2.endpoints, --application3.endpoints,
          #   --proxy.endpoints for the scenarios that have those services (Crank refuses them for the others)
          remote:
            variables:
              serverAddress: application-host
              backendAddress: backend-host
            jobs:
              backend:
                endpoints: []
              application:
                endpoints: []
              application2:
                endpoints: []
              application3:
                endpoints: []
              proxy:
                endpoints: []
              load:
                endpoints: []
        """;
}
