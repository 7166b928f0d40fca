namespace Ingest.Lab.Catalogue;

/// <summary>TEMPORARY: the catalogue as code, the oracle the data-loaded catalogue is checked against; deleted next.</summary>
internal static class CodeCatalogue
{
    /// <summary>The set the main command runs: the README's headline (<see cref="Headline"/>).</summary>
    public const string DefaultSet = HeadlineSet;

    public const string HeadlineSet = "headline";

    /// <summary>
    /// How the headline set is run unless the command line says otherwise: interleaved rounds over services that stay
    /// up between them, so a JIT service is warmed once, and every round's measurement of a scenario sits within a
    /// minute or two of every other scenario's (docs/lab.md#the-headline). Sized to finish within ten minutes on a
    /// 2-core machine, publishes included.
    /// </summary>
    public static readonly RunPlan HeadlinePlan = new(Rounds: 3, Repeats: 2, Duration: TimeSpan.FromSeconds(3),
        Warmup: TimeSpan.FromSeconds(3), WarmupLimit: TimeSpan.FromSeconds(20), KeepServices: true, Rewarm: TimeSpan.FromSeconds(2));

    /// <summary>What a run of any other set does by default: one round, every scenario started afresh.</summary>
    public static readonly RunPlan StandardPlan = new(Rounds: 1, Repeats: 3, Duration: TimeSpan.FromSeconds(3),
        Warmup: TimeSpan.FromSeconds(2), WarmupLimit: TimeSpan.FromSeconds(30), KeepServices: false, Rewarm: TimeSpan.Zero);

    /// <summary>The plan of a run over <paramref name="sets"/>: the headline's when that is the only set.</summary>
    public static RunPlan PlanFor(IReadOnlyList<string> sets) => sets is [HeadlineSet] ? HeadlinePlan : StandardPlan;

    /// <summary>
    /// The fastest configuration as users run it: the services' shipped settings file for the environment name
    /// <c>Fastest</c> (src/Ingest.*/appsettings.Fastest.json: IoUring with the application inline on its loops, and the
    /// front-end's own HTTP/1.1 client on connections those loops own), chosen by one switch (docs/configuration.md#the-fastest-configuration).
    /// </summary>
    public static readonly (string Key, string Value) Fastest = ("environment", "Fastest");

    /// <summary>The head-to-head with the original Red Hat transport (<see cref="RedHatHeadToHead"/>).</summary>
    public const string RedHatSet = "redhat";

    /// <summary>What <c>--set</c> takes for every set.</summary>
    public const string AllSets = "all";

    private const string IngestPath = "/ingest/event";

    /// <summary>Connection counts of the 2016 experiment: ab -c 50, and the c=300 second pass.</summary>
    private static readonly int[] ClassicConnections = [50, 300];

    /// <summary>The fast set's third connection count: far more requests in flight than cores or per-core pool slots.</summary>
    private const int ManyConnections = 1000;

    /// <summary>TechEmpower's micro tests run at 256 connections; its plaintext test pipelines 16 deep.</summary>
    private const int MicroConnections = 256;

    private const int PlaintextPipeline = 16;

    /// <summary>The status page, the view-engine benchmark's page here.</summary>
    private const string StatusPath = "/status";

    /// <summary>The page at the micro tests' 50 connections and at the 125 of the seed's view-engine comparison.</summary>
    private static readonly int[] TemplateConnections = [50, ValuesConnections];

    /// <summary>The Iris-vs-MVC comparison ran bombardier with 125 connections against /api/values/{id}.</summary>
    private const int ValuesConnections = 125;

    /// <summary>Time for the thread pool to grow a thread per blocked request at 50 connections, so the blocking
    /// strategy is measured in its steady state, as in 2016: on 2 cores it answers nothing for several seconds and reaches
    /// its plateau only after that (docs/notebook/classic.md); the adaptive warm-up goes on from here while it still rises.</summary>
    private static readonly TimeSpan BlockingWarmup = TimeSpan.FromSeconds(15);

    private static readonly (string Key, string Value) Gen0Budget1Mb = ("DOTNET_GCgen0size", "100000");

    /// <summary>
    /// The runtime sized for hundreds of requests in flight (docs/configuration.md#sized-for-the-requests-in-flight):
    /// a 64 MB gen0 budget (hexadecimal), so a gen0 collection does not promote every request in flight into gen1, and
    /// 1024 arrays per size and core in the shared ArrayPool instead of 32, so the buffers rented per request (ours and
    /// the framework's) are not dropped and allocated anew when more than 32 per core are out at once.
    /// At 300 connections it buys fewer bytes allocated a request, almost no gen1 collections and shorter GC pauses, for
    /// more resident memory per service (docs/notebook/fast-path.md#what-the-300-connections-cost).
    /// </summary>
    public static readonly (string Key, string Value)[] SizedForInFlight =
    [
        ("DOTNET_GCgen0size", "4000000"),
        ("DOTNET_SYSTEM_BUFFERS_SHAREDARRAYPOOL_MAXARRAYSPERPARTITION", "1024"),
    ];

    /// <summary>Workstation GC without the background (concurrent) collector: no background GC thread, and gen2 is
    /// collected in a blocking pause, which a heap of a few MB makes short.</summary>
    private static readonly (string Key, string Value) NonConcurrent = ("DOTNET_gcConcurrent", "0");

    /// <summary>The lean profile (docs/configuration.md#lean-profile): an 8 MB gen0 budget (hexadecimal; the default follows
    /// the CPU's cache size). The budget is what the heap grows by under load, and a much smaller one lets a gen0
    /// collection catch the requests in flight and promote them, for no less memory; the background GC off and the GC's
    /// conserve-memory mode bought nothing measurable here, so they are not in it
    /// (docs/notebook/lean-services.md#where-the-memory-goes-accounted). 1 MB regions (the default is 4 MB without a memory
    /// limit) leave less committed room around each generation at the same throughput. Two seconds into serving, the
    /// service pages out what it still maps of its program file (Memory:ReleaseStartupPagesAfterSeconds, here through the
    /// environment): a Native AOT service's start-up-only code and compressed type data
    /// (docs/notebook/lean-services.md#the-programs-own-pages-code-laid-out-by-a-trace-start-up-pages-given-back).</summary>
    public static readonly (string Key, string Value)[] Lean =
    [
        ("DOTNET_GCgen0size", "800000"),
        ("DOTNET_GCRegionSize", "100000"),
        ("Memory__ReleaseStartupPagesAfterSeconds", "2"),
    ];

    /// <summary>The 2016 front-end had no retries and no circuit breaker, one deadline per forward.</summary>
    private static readonly (string, string)[] As2016 =
    [
        ("Forwarding:RetryAttempts", "0"),
        ("Forwarding:BreakerBreakSeconds", "0"),
        ("Forwarding:AttemptTimeoutMilliseconds", "5000"),
    ];

    /// <summary>
    /// The Kestrel transports the lab measures side by side: each transport with its defaults, Sockets also with
    /// inline scheduling (Kestrel's switch and the socket engine's inline completions together, as TechEmpower
    /// runs it), LinuxEpoll also with Linux AIO batching both ways, and IoUring also with the completions' task work
    /// deferred to the loop thread (IORING_SETUP_DEFER_TASKRUN, Linux 6.1+).
    /// </summary>
    public static readonly TransportVariant[] Transports =
    [
        new("Sockets", [("Kestrel:Transport", "Sockets")]),
        new("Sockets-Inline", [("Kestrel:Transport", "Sockets"), ("Kestrel:Sockets:UnsafePreferInlineScheduling", "true")],
            [("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS", "1")]),
        new("LinuxEpoll", [("Kestrel:Transport", "LinuxEpoll")]),
        new("LinuxEpoll-Aio", [("Kestrel:Transport", "LinuxEpoll"), ("Kestrel:LinuxEpoll:AioReceive", "true"), ("Kestrel:LinuxEpoll:AioSend", "true")]),
        new("IoUring", [("Kestrel:Transport", "IoUring")]),
        new("IoUring-Deferred", [("Kestrel:Transport", "IoUring"), ("Kestrel:IoUring:DeferTaskRun", "true")]),
        new("Libuv", [("Kestrel:Transport", "Libuv")]),
    ];

    /// <summary>Run to completion: LinuxEpoll with the application inline on the loop that received the request.</summary>
    private static readonly (string Key, string Value)[] LoopInline =
    [
        ("Kestrel:Transport", "LinuxEpoll"),
        ("Kestrel:LinuxEpoll:ApplicationSchedulingMode", "Inline"),
    ];

    private static readonly (string Key, string Value)[] IoUringInline =
    [
        ("Kestrel:Transport", "IoUring"),
        ("Kestrel:IoUring:ApplicationSchedulingMode", "Inline"),
    ];

    /// <summary>
    /// The head-to-head with the original Red Hat transport (issue 20): Sockets, our LinuxEpoll with AIO off and on and the
    /// application on the thread pool and inline, IoUring, and RedHatLinux with the package's defaults (AIO both ways,
    /// thread pool). RedHatLinux needs its package: <c>dotnet publish</c> reads the MSBuild property
    /// <c>RedHatTransportPackages</c> from the lab's environment, and the lab skips that variant, saying so, when it is
    /// unset (<see cref="RedHatPackage"/>).
    /// </summary>
    public static readonly TransportVariant[] RedHatHeadToHead =
    [
        new("Sockets", [("Kestrel:Transport", "Sockets")]),
        new("LinuxEpoll", [("Kestrel:Transport", "LinuxEpoll")]),
        new("LinuxEpoll-Aio", [("Kestrel:Transport", "LinuxEpoll"), ("Kestrel:LinuxEpoll:AioReceive", "true"), ("Kestrel:LinuxEpoll:AioSend", "true")]),
        new("LinuxEpoll-Inline", [("Kestrel:Transport", "LinuxEpoll"), ("Kestrel:LinuxEpoll:ApplicationSchedulingMode", "Inline")]),
        new("LinuxEpoll-Aio-Inline", [("Kestrel:Transport", "LinuxEpoll"), ("Kestrel:LinuxEpoll:AioReceive", "true"), ("Kestrel:LinuxEpoll:AioSend", "true"), ("Kestrel:LinuxEpoll:ApplicationSchedulingMode", "Inline")]),
        new("IoUring", [("Kestrel:Transport", "IoUring")]),
        new("RedHatLinux", [("Kestrel:Transport", "RedHatLinux")]),
    ];

    /// <summary>
    /// The pairs that matter, per set, each at every connection count both scenarios have: the verdicts the console ends
    /// with and summary.md and report.html open with (<see cref="Results.Verdicts"/>).
    /// </summary>
    public static IReadOnlyList<Comparison> ComparisonsIn(string set) =>
        [.. Comparisons(set).Where(c => All.Any(s => s.Set == set && s.Name == c.Subject) && All.Any(s => s.Set == set && s.Name == c.Baseline))];

    private static IReadOnlyList<Comparison> Comparisons(string set) => set switch
    {
        HeadlineSet => [.. ClassicConnections.SelectMany(c => (IEnumerable<Comparison>)
        [
            new("fastest .NET vs Rust hyper", $"aspnet-fastest-c{c}", $"rust-hyper-c{c}"),
            new("fastest .NET vs Go fasthttp", $"aspnet-fastest-c{c}", $"go-fasthttp-c{c}"),
            new("fastest .NET vs Go net/http", $"aspnet-fastest-c{c}", $"go-nethttp-c{c}"),
            new("default .NET vs Go net/http", $"aspnet-default-c{c}", $"go-nethttp-c{c}"),
            new("fastest vs default .NET", $"aspnet-fastest-c{c}", $"aspnet-default-c{c}"),
            new("default .NET today vs as in 2016", $"aspnet-default-c{c}", $"aspnet-2016-c{c}"),
            new("fastest .NET against the floor (nginx to nginx)", $"aspnet-fastest-c{c}", $"floor-nginx-c{c}"),
        ])],
        "fast" => [.. ClassicConnections.Append(ManyConnections).SelectMany(c => (IEnumerable<Comparison>)
        [
            new("fastest .NET vs Rust hyper", $"aspnet-iouring-direct-c{c}", $"rust-hyper-c{c}"),
            new("fastest .NET vs Go fasthttp", $"aspnet-iouring-direct-c{c}", $"go-fasthttp-c{c}"),
            new("fastest .NET vs Go net/http", $"aspnet-iouring-direct-c{c}", $"go-nethttp-c{c}"),
            new("fastest .NET against the floor (nginx to nginx)", $"aspnet-iouring-direct-c{c}", $"floor-nginx-c{c}"),
        ])],
        _ => [],
    };

    private static readonly Lazy<IReadOnlyList<Scenario>> AllScenarios = new(Build);

    public static IReadOnlyList<Scenario> All => AllScenarios.Value;

    public static IReadOnlyList<string> Sets => [.. All.Select(s => s.Set).Distinct()];

    public static IReadOnlyList<Scenario> InSet(string set) => [.. All.Where(s => s.Set == set)];

    private static List<Scenario> Build()
    {
        var all = new List<Scenario>();
        all.AddRange(Headline());
        all.AddRange(Classic());
        all.AddRange(Fast());
        all.AddRange(OneKnob("serializers", "Ingest:Serializer", ["Newtonsoft", "SystemTextJson", "SystemTextJsonSourceGen"]));
        all.AddRange(OneKnob("serializers", "Ingest:Serializer", ["Newtonsoft", "SystemTextJson", "SystemTextJsonSourceGen"], PayloadKind.Batch100, suffix: "-batch100"));
        all.AddRange(OneKnob("api-styles", "Ingest:ApiStyle", ["Mvc", "Minimal", "Raw"]));
        all.AddRange(OneKnob("client-strategies", "Forwarding:ClientStrategy", ["PerRequest", "PerRequestBlocking", "Static", "Factory"])
            .Select(s => s.Name == "per-request-blocking" ? s with { MinimumWarmup = BlockingWarmup } : s));
        foreach (var connections in ClassicConnections)
        {
            all.AddRange(OneKnob("aggregation", "Forwarding:Mode", ["PerEvent", "Batched"], connections: connections, suffix: $"-c{connections}"));
        }

        all.AddRange(Gc());
        all.AddRange(Aot());
        all.AddRange(Proxy());
        all.AddRange(TransportScenarios("transports", Transports));
        all.AddRange(TransportScenarios(RedHatSet, RedHatHeadToHead));
        all.AddRange(ScaleOut());
        all.AddRange(MicroEndpoints());
        all.AddRange(Templates());
        all.AddRange(Storage());
        all.Add(new Scenario("smoke", "aspnet-static", "A few hundred classic payloads through the default configuration")
        {
            FrontEnd = DotNetFrontEnd(),
            BackEnd = DotNetBackEnd(),
            Load = new LoadSpec(IngestPath, PayloadKind.Classic, 4),
        });
        return all;
    }

    /// <summary>
    /// The main job's answer: the 2016 configuration, what <c>dotnet new</c> users get (Sockets, minimal API, a static
    /// HttpClient), the fastest configuration (<see cref="Fastest"/>, the same settings at every connection count), Go
    /// net/http pooled, each peer's fastest pair (Go fasthttp, Rust hyper: <see cref="FastestPeers"/>) and the floor
    /// (<see cref="Floor"/>), at the 2016 experiment's 50 and 300 connections. The 2016 row runs at 50 only, as in 2016,
    /// and its blocking threads make it the longest to warm.
    /// </summary>
    private static IEnumerable<Scenario> Headline()
    {
        foreach (var c in ClassicConnections)
        {
            var load = new LoadSpec(IngestPath, PayloadKind.Classic, c);
            if (c == ClassicConnections[0])
            {
                yield return Flow2016(HeadlineSet, load);
            }

            yield return Flow(HeadlineSet, $"aspnet-default-c{c}", "ASP.NET Core as dotnet new writes it: minimal API, Sockets, static HttpClient",
                DotNetFrontEnd(), load);
            yield return Flow(HeadlineSet, $"aspnet-fastest-c{c}", "ASP.NET Core, the fastest configuration: IoUring inline, own HTTP/1.1 client on loop-owned connections",
                DotNetFrontEnd(Fastest), load, backEnd: DotNetBackEnd(Fastest));
            yield return GoFlow($"go-nethttp-c{c}", "Go net/http, pooled client (MaxIdleConnsPerHost raised)", "pooled", load, set: HeadlineSet);
            foreach (var peer in FastestPeers(HeadlineSet, load))
            {
                yield return peer;
            }

            yield return Floor(HeadlineSet, load);
        }
    }

    /// <summary>The 2016 table recreated: ASP.NET Core as it was written then and as it should be written now,
    /// against Go as it was (a new transport per forward) and pooled, and fasthttp; then the c=300 pass, which in
    /// 2016 ran the static client only: here the best of each side (static client and raw middleware, Go pooled and
    /// fasthttp), so the default set stays within 5 minutes on 2 cores.</summary>
    private static IEnumerable<Scenario> Classic()
    {
        foreach (var c in ClassicConnections)
        {
            var load = new LoadSpec(IngestPath, PayloadKind.Classic, c);
            if (c == ClassicConnections[0])
            {
                yield return Flow2016("classic", load);
                yield return Flow("classic", $"aspnet-factory-c{c}", "ASP.NET Core: minimal API, source-generated System.Text.Json, IHttpClientFactory",
                    DotNetFrontEnd(("Forwarding:ClientStrategy", "Factory")), load);
            }

            yield return Flow("classic", $"aspnet-static-c{c}", "ASP.NET Core: minimal API, source-generated System.Text.Json, static HttpClient",
                DotNetFrontEnd(), load);
            yield return Flow("classic", $"aspnet-raw-c{c}", "ASP.NET Core: raw middleware, source-generated System.Text.Json, static HttpClient",
                DotNetFrontEnd(("Ingest:ApiStyle", "Raw")), load);
            yield return GoFlow($"go-nethttp-c{c}", "Go net/http, pooled client (MaxIdleConnsPerHost raised)", "pooled", load);
            if (c == ClassicConnections[0])
            {
                yield return GoFlow($"go-nethttp-per-request-c{c}", "Go net/http as in 2016: a new transport per forward, keep-alive off", "per-request", load);
            }

            yield return FastestPeers("classic", load).First();
        }
    }

    /// <summary>
    /// The run-to-completion path against the classic set's best .NET row and Go, at the classic connection counts:
    /// both services on their own transport's loops with the application inline, and the front-end forwarding over
    /// connections those loops own (ClientStrategy Loop, through HttpClient; LoopDirect, with the front-end's own
    /// HTTP/1.1 client), so a request is received, validated, forwarded, answered and acknowledged on one thread.
    /// </summary>
    private static IEnumerable<Scenario> Fast()
    {
        (string Key, string Value) loopClient = ("Forwarding:ClientStrategy", "Loop");
        (string Key, string Value) raw = ("Ingest:ApiStyle", "Raw");
        foreach (var c in ClassicConnections)
        {
            var load = new LoadSpec(IngestPath, PayloadKind.Classic, c);
            if (c == ClassicConnections[0])
            {
                // The headline's reference point: the configuration of the 2016 experiment, as in the classic set.
                yield return Flow2016("fast", load);
            }

            yield return Flow("fast", $"aspnet-static-c{c}", "ASP.NET Core: minimal API, Sockets, static HttpClient (the classic set's row)",
                DotNetFrontEnd(), load);
            yield return Flow("fast", $"aspnet-loop-c{c}", "ASP.NET Core: minimal API, LinuxEpoll inline, loop-owned forward connections",
                DotNetFrontEnd([.. LoopInline, loopClient]), load, backEnd: DotNetBackEnd(LoopInline));
            yield return Flow("fast", $"aspnet-raw-loop-c{c}", "ASP.NET Core: raw middleware, LinuxEpoll inline, loop-owned forward connections",
                DotNetFrontEnd([.. LoopInline, loopClient, raw]), load, backEnd: DotNetBackEnd([.. LoopInline, raw]));
            yield return Flow("fast", $"aspnet-iouring-loop-c{c}", "ASP.NET Core: minimal API, IoUring inline, loop-owned forward connections",
                DotNetFrontEnd([.. IoUringInline, loopClient]), load, backEnd: DotNetBackEnd(IoUringInline));
            yield return Flow("fast", $"aspnet-iouring-loop-sized-c{c}", "ASP.NET Core: minimal API, IoUring inline, loop-owned forward connections, runtime sized for the requests in flight",
                DotNetFrontEnd([.. IoUringInline, loopClient]).WithEnvironment(SizedForInFlight), load, backEnd: DotNetBackEnd(IoUringInline).WithEnvironment(SizedForInFlight));
            yield return Flow("fast", $"aspnet-iouring-direct-c{c}", "ASP.NET Core: minimal API, IoUring inline, own HTTP/1.1 client on loop-owned connections",
                DotNetFrontEnd(Fastest), load, backEnd: DotNetBackEnd(Fastest));
            yield return Flow("fast", $"aspnet-iouring-direct-sized-c{c}", "ASP.NET Core: minimal API, IoUring inline, own HTTP/1.1 client on loop-owned connections, runtime sized for the requests in flight",
                DotNetFrontEnd(Fastest).WithEnvironment(SizedForInFlight), load, backEnd: DotNetBackEnd(Fastest).WithEnvironment(SizedForInFlight));
            yield return GoFlow($"go-nethttp-c{c}", "Go net/http, pooled client (MaxIdleConnsPerHost raised)", "pooled", load, set: "fast");
            foreach (var peer in FastestPeers("fast", load))
            {
                yield return peer;
            }

            yield return Floor("fast", load);
        }

        // Beyond the 2016 experiment's counts: the fast path, each peer's fastest pair and the floor at 1,000 connections,
        // where requests in flight outnumber what any per-core pool holds.
        var thousand = new LoadSpec(IngestPath, PayloadKind.Classic, ManyConnections);
        yield return Flow("fast", $"aspnet-iouring-direct-c{ManyConnections}", "ASP.NET Core: minimal API, IoUring inline, own HTTP/1.1 client on loop-owned connections",
            DotNetFrontEnd(Fastest), thousand, backEnd: DotNetBackEnd(Fastest));
        foreach (var peer in FastestPeers("fast", thousand))
        {
            yield return peer;
        }

        yield return Floor("fast", thousand);
    }

    /// <summary>The default configuration with one knob turned through its values, on both services where it applies.</summary>
    private static IEnumerable<Scenario> OneKnob(string set, string key, string[] values, PayloadKind payload = PayloadKind.Classic, int connections = 50, string suffix = "")
    {
        var load = new LoadSpec(IngestPath, payload, connections);
        foreach (var value in values)
        {
            var frontEnd = DotNetFrontEnd((key, value));
            var backEnd = key.StartsWith("Ingest:", StringComparison.Ordinal) ? DotNetBackEnd((key, value)) : DotNetBackEnd();
            yield return new Scenario(set, Kebab(value) + suffix, $"{key} = {value}, {load.Describe()}")
            {
                FrontEnd = frontEnd,
                BackEnd = backEnd,
                Load = load,
            };
        }
    }

    private static IEnumerable<Scenario> Gc()
    {
        (string Name, string Title, (string, string)[] Environment)[] modes =
        [
            ("workstation", "Workstation GC, concurrent (the apps' default)", []),
            ("server-datas", "Server GC with DATAS (the .NET 9+ default for Server GC)", [("DOTNET_gcServer", "1")]),
            ("server", "Server GC without DATAS: a heap per core, as in 2016", [("DOTNET_gcServer", "1"), ("DOTNET_GCDynamicAdaptationMode", "0")]),
            ("workstation-nonconcurrent", "Workstation GC, non-concurrent (no background GC)", [NonConcurrent]),
            ("lean", "The lean profile: workstation GC, 8 MB gen0 budget, 1 MB regions", Lean),
        ];
        foreach (var c in ClassicConnections)
        {
            foreach (var (name, title, environment) in modes)
            {
                yield return new Scenario("gc", $"{name}-c{c}", title)
                {
                    FrontEnd = DotNetFrontEnd().WithEnvironment(environment),
                    BackEnd = DotNetBackEnd().WithEnvironment(environment),
                    Load = new LoadSpec(IngestPath, PayloadKind.Classic, c),
                };
            }
        }
    }

    private static IEnumerable<Scenario> Aot()
    {
        var load = new LoadSpec(IngestPath, PayloadKind.Classic, 50);
        yield return Flow("aot", "minimal-jit", "Minimal API on the JIT (tiered PGO)", DotNetFrontEnd(), load);
        yield return Flow("aot", "minimal-aot", "Minimal API, Native AOT (front-end and back-end)", DotNetFrontEnd() with { NativeAot = true }, load, aot: true);
        // What the profiles the services ship buy (every Native AOT publish gets them): the same build without them.
        yield return Flow("aot", "minimal-aot-no-profile", "Minimal API, Native AOT without the shipped profile of this workload", DotNetFrontEnd() with { NativeAot = true, ShippedProfile = false }, load, aot: true);
        // What dynamic PGO buys the JIT here: Native AOT has none, so this row is the JIT without it.
        yield return Flow("aot", "minimal-jit-no-pgo", "Minimal API on the JIT without dynamic PGO (DOTNET_TieredPGO=0)", DotNetFrontEnd().WithEnvironment(("DOTNET_TieredPGO", "0")), load);
        // Native AOT compiled with a profile of this workload: the lab trains the JIT build of the same scenario first
        // (Running/ProfileTraining), so the AOT code gets the block counts and likely classes dynamic PGO learns.
        yield return Flow("aot", "minimal-aot-pgo", "Minimal API, Native AOT with a profile of this workload trained on its own load (on the JIT), code laid out by a trace", DotNetFrontEnd() with { NativeAot = true, ProfileGuided = true }, load, aot: true);
        yield return Flow("aot", "raw-jit", "Raw middleware on the JIT", DotNetFrontEnd(("Ingest:ApiStyle", "Raw")), load);
        yield return Flow("aot", "raw-aot", "Raw middleware, Native AOT", DotNetFrontEnd(("Ingest:ApiStyle", "Raw")) with { NativeAot = true }, load, aot: true);

        // The same API style on the fast set's path (IoUring inline, the front-end's own HTTP/1.1 client): where the forward
        // is Ingest's own code rather than HttpClient and Polly, what is left of Native AOT's gap to the JIT.
        (string Key, string Value)[] direct = [.. IoUringInline, ("Forwarding:ClientStrategy", "LoopDirect")];
        yield return Flow("aot", "minimal-jit-direct", "Minimal API on the JIT, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct), load, backEnd: DotNetBackEnd(IoUringInline));
        yield return Flow("aot", "minimal-aot-direct", "Minimal API, Native AOT, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct) with { NativeAot = true }, load, aot: true, backEnd: DotNetBackEnd(IoUringInline) with { NativeAot = true });
        yield return Flow("aot", "minimal-aot-no-profile-direct", "Minimal API, Native AOT without the shipped profile, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct) with { NativeAot = true, ShippedProfile = false }, load, aot: true, backEnd: DotNetBackEnd(IoUringInline) with { NativeAot = true, ShippedProfile = false });
        yield return Flow("aot", "minimal-aot-pgo-direct", "Minimal API, Native AOT with a profile of this workload, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct) with { NativeAot = true, ProfileGuided = true }, load, aot: true, backEnd: DotNetBackEnd(IoUringInline) with { NativeAot = true, ProfileGuided = true });

        // The GC's gen0 budget (sized from the CPU cache by default) is most of what a front-end's heap grows by under
        // load; a 1 MB budget (DOTNET_GCgen0size is hexadecimal) trades more gen0 collections for less resident memory.
        yield return Flow("aot", "minimal-jit-gen0-1mb", "Minimal API on the JIT, 1 MB gen0 budget", DotNetFrontEnd().WithEnvironment(Gen0Budget1Mb), load);
        yield return Flow("aot", "minimal-aot-gen0-1mb", "Minimal API, Native AOT, 1 MB gen0 budget", DotNetFrontEnd().WithEnvironment(Gen0Budget1Mb) with { NativeAot = true }, load, aot: true);

        // Which GC setting buys how much memory for how much throughput: the background collector alone, then the whole
        // lean profile (both services, as every row of this set).
        yield return Flow("aot", "minimal-jit-nonconcurrent", "Minimal API on the JIT, non-concurrent GC", DotNetFrontEnd().WithEnvironment(NonConcurrent), load);
        yield return Flow("aot", "minimal-aot-nonconcurrent", "Minimal API, Native AOT, non-concurrent GC", DotNetFrontEnd().WithEnvironment(NonConcurrent) with { NativeAot = true }, load, aot: true);
        yield return Flow("aot", "minimal-jit-lean", "Minimal API on the JIT, the lean profile", DotNetFrontEnd().WithEnvironment(Lean), load);
        yield return Flow("aot", "minimal-aot-lean", "Minimal API, Native AOT, the lean profile", DotNetFrontEnd().WithEnvironment(Lean) with { NativeAot = true }, load, aot: true);

        // The lean profile on the fast path: the front-end's own client allocates less than half of what HttpClient and
        // its resilience pipeline do per request, so the same budget is collected less often.
        yield return Flow("aot", "minimal-jit-lean-direct", "Minimal API on the JIT, the lean profile, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct).WithEnvironment(Lean), load, backEnd: DotNetBackEnd(IoUringInline).WithEnvironment(Lean));
        yield return Flow("aot", "minimal-aot-lean-direct", "Minimal API, Native AOT, the lean profile, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct).WithEnvironment(Lean) with { NativeAot = true }, load, aot: true, backEnd: DotNetBackEnd(IoUringInline).WithEnvironment(Lean) with { NativeAot = true });

        // The JIT front-end's floor is the shared framework it maps: its ReadyToRun assemblies, ~38 MB resident under load,
        // where a Native AOT build maps its own code. Published self-contained and trimmed, the service maps only the
        // framework code it can reach, as IL the JIT compiles as it goes (no ReadyToRun code: start-up is slower, tier 1
        // with dynamic PGO replaces what runs either way). Both services alike, as every row of this set.
        yield return Flow("aot", "minimal-jit-trimmed-direct", "Minimal API on the JIT, published trimmed (self-contained), IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct) with { Trimmed = true }, load, backEnd: DotNetBackEnd(IoUringInline) with { Trimmed = true });

        // And half the budget there (4 MB): at 3.4 KB allocated a request instead of 7.6 KB, the fast path collects a 4 MB
        // budget about as often as the default path collects 8 MB — memory for nothing, or for how much throughput?
        (string Key, string Value)[] leanGen0Budget4Mb = [.. Lean, ("DOTNET_GCgen0size", "400000")];
        yield return Flow("aot", "minimal-aot-lean-direct-gen0-4mb", "Minimal API, Native AOT, the lean profile with a 4 MB gen0 budget, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct).WithEnvironment(leanGen0Budget4Mb) with { NativeAot = true }, load, aot: true, backEnd: DotNetBackEnd(IoUringInline).WithEnvironment(leanGen0Budget4Mb) with { NativeAot = true });
        // The same, profile-guided: the lab's training gives the build the workload's profile and lays its code out by a
        // trace of it (Running/ProfileTraining), so the front-end maps the pages of code it runs and few others.
        yield return Flow("aot", "minimal-aot-pgo-lean-direct-gen0-4mb", "Minimal API, Native AOT with a profile and code layout of this workload, the lean profile with a 4 MB gen0 budget, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct).WithEnvironment(leanGen0Budget4Mb) with { NativeAot = true, ProfileGuided = true }, load, aot: true, backEnd: DotNetBackEnd(IoUringInline).WithEnvironment(leanGen0Budget4Mb) with { NativeAot = true, ProfileGuided = true });

        // The trimmed JIT build (above) with the lean profile and either budget, as the Native AOT rows: its start-up page
        // release covers the runtime and assemblies the build carries in its own folder.
        yield return Flow("aot", "minimal-jit-trimmed-lean-direct", "Minimal API on the JIT, published trimmed (self-contained), the lean profile, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct).WithEnvironment(Lean) with { Trimmed = true }, load, backEnd: DotNetBackEnd(IoUringInline).WithEnvironment(Lean) with { Trimmed = true });
        yield return Flow("aot", "minimal-jit-trimmed-lean-direct-gen0-4mb", "Minimal API on the JIT, published trimmed (self-contained), the lean profile with a 4 MB gen0 budget, IoUring inline, own HTTP/1.1 client", DotNetFrontEnd(direct).WithEnvironment(leanGen0Budget4Mb) with { Trimmed = true }, load, backEnd: DotNetBackEnd(IoUringInline).WithEnvironment(leanGen0Budget4Mb) with { Trimmed = true });
    }

    private static IEnumerable<Scenario> Proxy()
    {
        foreach (var door in Enum.GetValues<FrontDoor>())
        {
            var name = door.ToString().ToLowerInvariant();
            yield return Flow("proxy", $"ingest-{name}", $"Ingest flow, load generator -> {door} -> front-end",
                DotNetFrontEnd(), new LoadSpec(IngestPath, PayloadKind.Classic, 50)) with { FrontDoor = door };
            yield return new Scenario("proxy", $"plaintext-{name}", $"GET /plaintext, load generator -> {door} -> Kestrel")
            {
                FrontEnd = DotNetFrontEnd(),
                FrontDoor = door,
                Load = new LoadSpec("/plaintext", PayloadKind.None, 50),
            };
        }
    }

    private static IEnumerable<Scenario> TransportScenarios(string set, TransportVariant[] transports)
    {
        foreach (var transport in transports)
        {
            var name = Kebab(transport.Name).Replace("--", "-", StringComparison.Ordinal);
            var spec = DotNetFrontEnd(transport.Settings) with { Environment = transport.Environment };
            yield return Flow(set, $"{name}-ingest-c50", $"Ingest flow over {transport.Name} (both services)", spec,
                new LoadSpec(IngestPath, PayloadKind.Classic, 50), backEnd: DotNetBackEnd(transport.Settings) with { Environment = transport.Environment });
            yield return new Scenario(set, $"{name}-json-c{MicroConnections}", $"GET /json over {transport.Name}")
            {
                FrontEnd = spec,
                Load = new LoadSpec("/json", PayloadKind.None, MicroConnections),
            };
            yield return new Scenario(set, $"{name}-plaintext-p{PlaintextPipeline}", $"GET /plaintext pipelined x{PlaintextPipeline} over {transport.Name}")
            {
                FrontEnd = spec,
                Load = new LoadSpec("/plaintext", PayloadKind.None, MicroConnections) { Pipeline = PlaintextPipeline },
            };
        }
    }

    /// <summary>The original's Swarm x3 experiment: front-end instances behind nginx as load balancer.</summary>
    private static IEnumerable<Scenario> ScaleOut()
    {
        var load = new LoadSpec(IngestPath, PayloadKind.Classic, 50);
        foreach (var instances in new[] { 1, 3 })
        {
            yield return Flow("scale-out", $"aspnet-x{instances}", $"{instances} ASP.NET Core front-end(s) behind nginx", DotNetFrontEnd(), load)
                with { FrontDoor = FrontDoor.Nginx, FrontEndInstances = instances };
            yield return GoFlow($"go-nethttp-x{instances}", $"{instances} Go net/http front-end(s) behind nginx", "pooled", load, set: "scale-out")
                with { FrontDoor = FrontDoor.Nginx, FrontEndInstances = instances };
        }
    }

    /// <summary>The ingest flow at the classic 50 connections with each sink behind the back-end: what a real store
    /// costs against counting (Null) and keeping in memory. Each store runs on this machine too, with its defaults
    /// (PostgreSQL and the file sink commit durably: fsync on, per batch).</summary>
    private static IEnumerable<Scenario> Storage()
    {
        var load = new LoadSpec(IngestPath, PayloadKind.Classic, 50);
        (string Sink, StoreKind[] Stores)[] sinks =
        [
            ("Null", []),
            ("Memory", []),
            ("File", [StoreKind.Files]),
            ("PostgreSql", [StoreKind.PostgreSql]),
            ("Redis", [StoreKind.Redis]),
        ];
        foreach (var (sink, stores) in sinks)
        {
            yield return new Scenario("storage", Kebab(sink).Replace("postgre-sql", "postgresql", StringComparison.Ordinal), $"Ingest flow, back-end sink {sink}, {load.Describe()}")
            {
                FrontEnd = DotNetFrontEnd(),
                BackEnd = DotNetBackEnd().With(("Sinks:Default", sink)),
                Load = load,
                Stores = stores,
            };
        }
    }

    /// <summary>
    /// The seed's view-engine benchmark as the services' status page (GET /status: a layout, the configuration, the
    /// counters): MVC Razor views, RazorSlices on minimal APIs (JIT and Native AOT), and Go's html/template, at the
    /// micro tests' 50 connections and the seed's 125.
    /// </summary>
    private static IEnumerable<Scenario> Templates()
    {
        foreach (var connections in TemplateConnections)
        {
            var load = new LoadSpec(StatusPath, PayloadKind.None, connections);
            yield return new Scenario("templates", $"mvc-views-c{connections}", $"{load.Describe()}, MVC Razor views")
            {
                FrontEnd = DotNetFrontEnd(("Ingest:ApiStyle", "Mvc")),
                Load = load,
            };
            yield return new Scenario("templates", $"minimal-slices-c{connections}", $"{load.Describe()}, RazorSlices on minimal APIs")
            {
                FrontEnd = DotNetFrontEnd(("Ingest:ApiStyle", "Minimal")),
                Load = load,
            };
            yield return new Scenario("templates", $"minimal-slices-aot-c{connections}", $"{load.Describe()}, RazorSlices on minimal APIs, Native AOT")
            {
                FrontEnd = DotNetFrontEnd(("Ingest:ApiStyle", "Minimal")) with { NativeAot = true },
                Load = load,
            };
            yield return new Scenario("templates", $"go-nethttp-c{connections}", $"{load.Describe()}, Go net/http with html/template")
            {
                FrontEnd = ServiceSpec.Peer(Implementation.GoNetHttp),
                Load = load,
            };
        }
    }

    private static IEnumerable<Scenario> MicroEndpoints()
    {
        var loads = new (string Name, LoadSpec Load)[]
        {
            ($"plaintext-p{PlaintextPipeline}", new LoadSpec("/plaintext", PayloadKind.None, MicroConnections) { Pipeline = PlaintextPipeline }),
            ($"json-c{MicroConnections}", new LoadSpec("/json", PayloadKind.None, MicroConnections)),
            ($"values-c{ValuesConnections}", new LoadSpec("/api/values/5", PayloadKind.None, ValuesConnections)),
        };
        foreach (var (name, load) in loads)
        {
            foreach (var style in new[] { "Raw", "Minimal", "Mvc" })
            {
                yield return new Scenario("micro-endpoints", $"aspnet-{Kebab(style)}-{name}", $"{load.Describe()}, {style}")
                {
                    FrontEnd = DotNetFrontEnd(("Ingest:ApiStyle", style)),
                    Load = load,
                };
            }

            yield return new Scenario("micro-endpoints", $"go-nethttp-{name}", $"{load.Describe()}, Go net/http")
            {
                FrontEnd = ServiceSpec.Peer(Implementation.GoNetHttp),
                Load = load,
            };
        }
    }

    private static Scenario Flow(string set, string name, string title, ServiceSpec frontEnd, LoadSpec load, bool aot = false, ServiceSpec? backEnd = null)
    {
        // The back-end speaks the front-end's serializer and style, as the two halves of one deployment would.
        backEnd ??= DotNetBackEnd([.. frontEnd.Settings.Where(s => s.Key.StartsWith("Ingest:", StringComparison.Ordinal)).Select(s => (s.Key, s.Value))]) with
        {
            Environment = frontEnd.Environment,
            NativeAot = aot,
            ProfileGuided = frontEnd.ProfileGuided,
            ShippedProfile = frontEnd.ShippedProfile,
        };
        return new Scenario(set, name, title) { FrontEnd = frontEnd, BackEnd = backEnd, Load = load };
    }

    /// <summary>ASP.NET Core as the 2016 experiment wrote it, warmed long enough for the blocking strategy's threads.</summary>
    private static Scenario Flow2016(string set, LoadSpec load) =>
        Flow(set, $"aspnet-2016-c{load.Connections}", "ASP.NET Core as in 2016: MVC, Newtonsoft.Json, new HttpClient per request blocking on .Result",
            DotNetFrontEnd([("Ingest:ApiStyle", "Mvc"), ("Ingest:Serializer", "Newtonsoft"), ("Forwarding:ClientStrategy", "PerRequestBlocking"), .. As2016]), load)
            with { MinimumWarmup = BlockingWarmup };

    /// <summary>Go net/http's front-end (with its client mode) forwarding to Go net/http's back-end.</summary>
    private static Scenario GoFlow(string name, string title, string client, LoadSpec load, string set = "classic") =>
        PeerFlow(set, name, title, Implementation.GoNetHttp, load, ("client", client));

    /// <summary>Each peer at its best, a pair of its own services: Go fasthttp on both sides, Rust hyper on both sides.</summary>
    private static IEnumerable<Scenario> FastestPeers(string set, LoadSpec load) =>
    [
        PeerFlow(set, $"go-fasthttp-c{load.Connections}", "Go fasthttp front-end and back-end, pooled HostClient", Implementation.GoFastHttp, load),
        PeerFlow(set, $"rust-hyper-c{load.Connections}", "Rust hyper + tokio front-end and back-end, pooled hyper client", Implementation.RustHyper, load),
    ];

    /// <summary>
    /// The floor: nginx passing each request on to an nginx that answers 200 (<see cref="Implementation.Nginx"/>): two HTTP
    /// exchanges with no JSON work, what every other row pays at least on the same machine, so each reads as a share of it.
    /// </summary>
    private static Scenario Floor(string set, LoadSpec load) =>
        PeerFlow(set, $"floor-nginx-c{load.Connections}", "The floor: nginx proxying to an nginx that answers 200, no JSON work", Implementation.Nginx, load);

    /// <summary>A peer's front-end (with <paramref name="frontEndFlags"/>) forwarding to the same peer's back-end.</summary>
    private static Scenario PeerFlow(string set, string name, string title, Implementation implementation, LoadSpec load, params (string Flag, string Value)[] frontEndFlags) =>
        new(set, name, title)
        {
            FrontEnd = ServiceSpec.Peer(implementation, frontEndFlags),
            BackEnd = ServiceSpec.Peer(implementation),
            Load = load,
        };

    private static ServiceSpec DotNetFrontEnd(params (string Key, string Value)[] settings) => ServiceSpec.DotNet(settings);

    /// <summary>The lab's back-ends count events and keep none (the null sink), as the Go back-end does.</summary>
    private static ServiceSpec DotNetBackEnd(params (string Key, string Value)[] settings) =>
        ServiceSpec.DotNet([("Sinks:Default", "Null"), .. settings]);

    private static string Kebab(string value)
    {
        var result = new System.Text.StringBuilder();
        foreach (var c in value)
        {
            if (char.IsUpper(c) && result.Length > 0)
            {
                result.Append('-');
            }

            result.Append(char.ToLowerInvariant(c));
        }

        return result.ToString();
    }
}
