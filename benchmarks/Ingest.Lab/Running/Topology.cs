using System.Globalization;
using System.Net.Sockets;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;

namespace Ingest.Lab.Running;

/// <summary>
/// The processes of one scenario, started in order (stores, back-end, front-end instances, front door) on free
/// loopback ports, each waited for until it is healthy; disposing stops every one of them, whatever happened. With a
/// <see cref="Placement"/> the back-end and the front-ends run in network namespaces of their own instead (the
/// <c>faults</c> command's network), each listening on every address there and reached where the placement says.
/// </summary>
internal sealed class Topology : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(10);

    private readonly List<ServiceProcess> _processes = [];
    private readonly Dictionary<string, Uri> _metrics = [];
    private readonly List<StoreServer> _stores = [];
    private readonly List<(ServiceCgroup Group, ServiceProcess Process)> _limited = [];
    private readonly ServiceLimits _limits;
    private readonly Placement? _placement;

    private Topology(ServiceLimits limits, Placement? placement)
    {
        _limits = limits;
        _placement = placement;
    }

    /// <summary>Where the load generator sends its requests.</summary>
    public Uri Target { get; private set; } = null!;

    /// <summary>The back-end's base URL (its /ingest/stats tells what was persisted); null when the scenario does not forward.</summary>
    public Uri? BackEnd { get; private set; }

    /// <summary>The front-ends' base URLs (each serves /metrics).</summary>
    public IReadOnlyList<Uri> FrontEnds { get; private set; } = [];

    /// <summary>Every started process by name, for sampling.</summary>
    public IReadOnlyDictionary<string, int> ProcessIds => _processes.ToDictionary(p => p.Name, p => p.ProcessId);

    public IReadOnlyList<ServiceProcess> Processes => _processes;

    /// <summary>Each .NET service's <c>/metrics</c> by process name (a Go service, a proxy and a store have none).</summary>
    public IReadOnlyDictionary<string, Uri> Metrics => _metrics;

    public static async Task<Topology> StartAsync(Scenario scenario, Artifacts artifacts, Pinning pinning, ServiceLimits limits, string workDirectory, CancellationToken cancellationToken, Placement? placement = null)
    {
        if (placement is not null && (scenario.FrontDoor != FrontDoor.Direct || scenario.Stores.Any(s => s != StoreKind.Files)))
        {
            throw new InvalidOperationException($"{scenario.Id}: a front door or a store server runs on the lab's loopback only, out of the placement's namespaces.");
        }

        var topology = new Topology(limits, placement);
        try
        {
            await topology.StartServicesAsync(scenario, artifacts, pinning, workDirectory, cancellationToken);
            return topology;
        }
        catch
        {
            await topology.DisposeAsync();
            throw;
        }
    }

    /// <summary>The last log lines of every process, for a failure report.</summary>
    public string LastLines() => string.Join("\n", _processes.Select(p => $"--- {p.Name} (last lines)\n{p.LastLines()}"));

    public async ValueTask DisposeAsync()
    {
        // Front door first, back-end last: nothing is left forwarding to a stopped service.
        for (var i = _processes.Count - 1; i >= 0; i--)
        {
            await _processes[i].StopAsync(StopGrace);
            await _processes[i].DisposeAsync();
        }

        _processes.Clear();
        foreach (var (group, _) in _limited)
        {
            group.Dispose();
        }

        _limited.Clear();

        // The stores last: the back-end is gone, nothing writes to them any more.
        foreach (var store in _stores)
        {
            await store.DisposeAsync();
        }

        _stores.Clear();
    }

    private async Task StartServicesAsync(Scenario scenario, Artifacts artifacts, Pinning pinning, string workDirectory, CancellationToken cancellationToken)
    {
        Uri? forwardTo = null;
        if (scenario.BackEnd is { } backEndSpec)
        {
            foreach (var kind in scenario.Stores)
            {
                var store = await StoreServer.StartAsync(kind, artifacts.Layout, cancellationToken);
                _stores.Add(store);
                backEndSpec = backEndSpec.With([.. store.Settings.Select(s => (s.Key, s.Value))]);
            }

            var port = FreePorts.Next();
            await StartServiceAsync("back-end", backEndSpec, ServiceRole.BackEnd, port, backEnd: null, _placement?.BackEnd, artifacts, pinning, workDirectory, cancellationToken);
            BackEnd = At(_placement?.BackEnd.FromLab, port);
            forwardTo = At(_placement?.BackEnd.FromPeers, port);
        }

        var frontEnds = new List<Uri>();
        for (var i = 0; i < scenario.FrontEndInstances; i++)
        {
            var port = FreePorts.Next();
            var name = scenario.FrontEndInstances == 1 ? "front-end" : $"front-end-{i + 1}";
            await StartServiceAsync(name, scenario.FrontEnd, ServiceRole.FrontEnd, port, forwardTo, _placement?.FrontEnd, artifacts, pinning, workDirectory, cancellationToken);
            frontEnds.Add(At(_placement?.FrontEnd.FromLab, port));
        }

        FrontEnds = frontEnds;
        Target = scenario.FrontDoor == FrontDoor.Direct
            ? frontEnds[0]
            : await StartFrontDoorAsync(scenario.FrontDoor, frontEnds, pinning, workDirectory, cancellationToken);
    }

    private async Task StartServiceAsync(string name, ServiceSpec spec, ServiceRole role, int port, Uri? backEnd, ServiceHost? host, Artifacts artifacts, Pinning pinning, string workDirectory, CancellationToken cancellationToken)
    {
        if (host is not null && spec.Implementation == Implementation.Nginx)
        {
            throw new InvalidOperationException($"{name}: the nginx floor runs on the lab's loopback only.");
        }

        var (fileName, prefix, missing) = await artifacts.ResolveAsync(spec, role, cancellationToken);
        if (fileName is null)
        {
            throw new ScenarioSkippedException($"{name}: {missing}");
        }

        var arguments = new List<string>(prefix);
        var environment = spec.Environment;
        string? directory = null;
        if (spec.Implementation == Implementation.Nginx)
        {
            directory = Path.Combine(workDirectory, name);
            Directory.CreateDirectory(directory);
            (fileName, var floorArguments, environment) = ProxyConfigs.NginxFloor(directory, port, backEnd);
            arguments.AddRange(floorArguments);
        }
        else if (spec.Implementation == Implementation.DotNet)
        {
            arguments.AddRange(["--urls", At(host is null ? null : ServiceHost.EveryAddress, port).ToString().TrimEnd('/')]);
            if (backEnd is not null)
            {
                arguments.AddRange(["--Forwarding:BackEnds:0", backEnd.ToString().TrimEnd('/')]);
            }

            arguments.AddRange(spec.SettingArguments);
        }
        else
        {
            // Every peer takes ingest-go's command line (src/baselines/go/README.md#flags).
            arguments.AddRange(["-role", role == ServiceRole.FrontEnd ? "frontend" : "backend"]);
            arguments.AddRange(["-listen", $"{(host is null ? LoopbackAddress : ServiceHost.EveryAddress)}:{port.ToString(CultureInfo.InvariantCulture)}"]);
            if (backEnd is not null)
            {
                arguments.AddRange(["-backends", backEnd.ToString().TrimEnd('/')]);
            }

            foreach (var (flag, value) in spec.Settings)
            {
                arguments.AddRange([$"-{flag}", value]);
            }
        }

        var group = _limits.IsNone ? null : ServiceCgroup.Create(name, _limits);
        var (limitedFile, limitedArgs) = group is null ? (fileName, arguments) : group.Wrap(fileName, arguments);
        var (file, args) = Pinning.Wrap(pinning.ServiceCpus, limitedFile, limitedArgs);
        if (host is not null)
        {
            (file, args) = host.Wrap(file, args);
        }

        var process = ServiceProcess.Start(name, file, args, environment, directory);
        _processes.Add(process);
        if (group is not null)
        {
            _limited.Add((group, process));
        }

        if (spec.Implementation != Implementation.Nginx)
        {
            // nginx prints nothing when it is ready: its /healthz says it.
            await process.WaitUntilReadyAsync(StartTimeout, cancellationToken);
        }

        await WaitForHealthAsync(process, At(host?.FromLab, port), cancellationToken);
        if (spec.Implementation == Implementation.DotNet)
        {
            _metrics[name] = new Uri(At(host?.FromLab, port), "metrics");
        }
    }

    /// <summary>Each limited service's limits, what its runtime reported at start-up and what its group counted.</summary>
    public IReadOnlyList<Results.ContainerFigures> Containers() =>
        [.. _limited.Select(l =>
        {
            var (peak, kills) = l.Group.Read();
            var startup = l.Process.LastLines(int.MaxValue).Split('\n').FirstOrDefault(line => line.Contains(StartupLine, StringComparison.Ordinal)) ?? "";
            return new Results.ContainerFigures
            {
                Service = l.Group.Service,
                Limits = l.Group.Limits.Describe(),
                RuntimeCpus = (int?)StartupFact(startup, "cpus="),
                RuntimeMemoryBytes = StartupFact(startup, "memory=") * 1024 * 1024,
                GroupPeakBytes = peak,
                OomKills = kills,
            };
        })];

    /// <summary>Why a service ended early, when its group knows: the OOM killer of its memory limit.</summary>
    public string ExitNote(ServiceProcess process) =>
        _limited.FirstOrDefault(l => l.Process == process).Group is { } group && group.Read().OomKills > 0
            ? $" (killed by the OOM killer: memory limit {group.Limits.Describe()})"
            : "";

    /// <summary>The .NET services' start-up line, which names the CPUs and memory the runtime saw.</summary>
    private const string StartupLine = "Ingest listening on";

    private static long? StartupFact(string line, string name)
    {
        var at = line.IndexOf(" " + name, StringComparison.Ordinal);
        if (at < 0)
        {
            return null;
        }

        var digits = line.AsSpan(at + 1 + name.Length);
        var length = digits.IndexOfAnyExceptInRange('0', '9');
        return long.TryParse(length < 0 ? digits : digits[..length], NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : null;
    }

    private async Task<Uri> StartFrontDoorAsync(FrontDoor door, IReadOnlyList<Uri> frontEnds, Pinning pinning, string workDirectory, CancellationToken cancellationToken)
    {
        var port = FreePorts.Next();
        var directory = Path.Combine(workDirectory, door.ToString().ToLowerInvariant());
        Directory.CreateDirectory(directory);
        var (fileName, arguments, environment) = door == FrontDoor.Nginx
            ? ProxyConfigs.Nginx(directory, port, frontEnds)
            : ProxyConfigs.Caddy(directory, port, frontEnds);
        if (await MachineToolsAsync(fileName, cancellationToken) is false)
        {
            throw new ScenarioSkippedException($"{fileName} is not installed (Debian package {fileName})");
        }

        var (file, args) = Pinning.Wrap(pinning.ServiceCpus, fileName, arguments);
        var process = ServiceProcess.Start(door.ToString().ToLowerInvariant(), file, args, environment, directory);
        _processes.Add(process);
        var target = Loopback(port);
        await WaitForHealthAsync(process, target, cancellationToken);
        return target;
    }

    private static async Task<bool> MachineToolsAsync(string tool, CancellationToken cancellationToken) =>
        await Results.MachineInfo.FirstLineAsync("sh", ["-c", $"command -v {tool}"], cancellationToken) is not null;

    /// <summary>Polls GET /healthz until it answers 200 (through a proxy too), or fails with the process's last lines.</summary>
    private static async Task WaitForHealthAsync(ServiceProcess process, Uri baseAddress, CancellationToken cancellationToken)
    {
        using var client = new HttpClient { BaseAddress = baseAddress, Timeout = TimeSpan.FromSeconds(2) };
        var deadline = DateTime.UtcNow + StartTimeout;
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (process.HasExited)
            {
                throw new InvalidOperationException($"{process.Name} exited during start-up. Last lines:\n{process.LastLines()}");
            }

            try
            {
                using var response = await client.GetAsync("/healthz", cancellationToken);
                if (response.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
            }
            catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
            }
            catch (SocketException)
            {
            }

            if (DateTime.UtcNow > deadline)
            {
                throw new InvalidOperationException($"{process.Name} did not answer GET {baseAddress}healthz within {StartTimeout.TotalSeconds:0} s. Last lines:\n{process.LastLines()}");
            }

            await Task.Delay(50, cancellationToken);
        }
    }

    private const string LoopbackAddress = "127.0.0.1";

    private static Uri Loopback(int port) => At(null, port);

    /// <summary>http://<paramref name="address"/>:<paramref name="port"/>/, on the lab's loopback when no address is given.</summary>
    private static Uri At(string? address, int port) => new($"http://{address ?? LoopbackAddress}:{port.ToString(CultureInfo.InvariantCulture)}/");
}
