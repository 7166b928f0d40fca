using System.Diagnostics;
using System.Globalization;
using Ingest.Lab.Running;

namespace Ingest.Lab.Faults;

/// <summary>
/// The network the faults command runs the services on, and the one place that makes, faults and removes it: two network
/// namespaces, one for the front-end and one for the back-end, joined by the <see cref="Wire"/> (a TUN device in each),
/// plus a leg from the lab's namespace into each (a veth pair) that no fault touches, for the load, the health checks,
/// the metrics and the loss check. Faults act on the wire's devices only, inside the namespaces, so removing the
/// namespaces removes every rule and queue with them; the lab's own namespace gets only the two legs, and no rule.
/// </summary>
/// <remarks>
/// <para>Addresses come from 198.18.0.0/15, which RFC 2544 reserves for benchmarking, in subnets crank/run-netns.sh does
/// not use (it takes 198.18.0-2.x): the wire is 198.18.10.0/24, the legs 198.18.11.0/24 (front-end) and 198.18.12.0/24
/// (back-end).</para>
/// <para>Why C# and not a script beside it: the lab holds the wire's devices (their descriptors are the link), starts the
/// services into the namespaces and must take all of it down in one <c>finally</c>, after the services, whatever
/// failed; and the tests fault the same network through the same code. The commands are the plain tools' (<c>ip</c>,
/// <c>tc</c>, <c>nft</c>, <c>ss</c>), each logged into the failure it causes.</para>
/// <para>Why a wire of the lab's and not a veth pair with netem: latency and reordering are netem's, and kernels built
/// without sch_netem (this project's development machine's has neither netem nor the fq and etf qdiscs that honour a
/// packet's departure time) cannot delay a packet. Everything else is the kernel's own: nftables drops, duplicates and
/// blocks SYNs, tc's token bucket caps the rate.</para>
/// </remarks>
internal sealed class FaultNetwork : IAsyncDisposable
{
    public const string FrontEndNamespace = "ingest-faults-fe";
    public const string BackEndNamespace = "ingest-faults-be";

    /// <summary>The wire's device in each namespace.</summary>
    private const string WireDevice = "wire";

    /// <summary>The table every fault's rules go in, in each namespace.</summary>
    private const string Table = "ingest_faults";

    private const string FrontEndWire = "198.18.10.1";
    private const string BackEndWire = "198.18.10.2";
    private const string LabToFrontEnd = "198.18.11.1";
    private const string FrontEndLeg = "198.18.11.2";
    private const string LabToBackEnd = "198.18.12.1";
    private const string BackEndLeg = "198.18.12.2";
    private const string Prefix = "/24";

    /// <summary>The lab's ends of the legs, and the wire's devices before they move into the namespaces.</summary>
    private const string FrontEndLegLink = "ingf-fe";
    private const string BackEndLegLink = "ingf-be";
    private const string FrontEndTun = "ingf-wfe";
    private const string BackEndTun = "ingf-wbe";

    private static readonly string[] Subnets = ["198.18.10.0/24", "198.18.11.0/24", "198.18.12.0/24"];

    private readonly List<string> _namespaces = [];
    private readonly List<string> _links = [];
    private readonly List<(string Namespace, string Family)> _tables = [];
    private readonly List<string> _shaped = [];
    private Wire? _wire;

    private FaultNetwork()
    {
    }

    /// <summary>Where the services run: each in its namespace, the lab reaching it over its leg, the front-end reaching
    /// the back-end over the wire.</summary>
    public static Placement Placement { get; } = new(
        new ServiceHost(FrontEndNamespace, FrontEndLeg, FrontEndWire),
        new ServiceHost(BackEndNamespace, BackEndLeg, BackEndWire));

    /// <summary>Packets the wire carried so far.</summary>
    public long Carried => _wire?.Carried ?? 0;

    /// <summary>Why this machine cannot run the faults at all (not Linux, not root, a tool or the TUN driver missing, or
    /// <c>ip netns add</c> refused); null when it can. Found once a process: a test framework asks when it lists the
    /// tests and again when it runs them, and a test skipped in the first and not in the second runs without its data.</summary>
    public static string? MachineRefusal() => s_machineRefusal.Value;

    private static readonly Lazy<string?> s_machineRefusal = new(ProbeMachine);

    private static string? ProbeMachine()
    {
        if (!OperatingSystem.IsLinux() || !Environment.IsPrivilegedProcess)
        {
            return "the faults make network namespaces: they need Linux and root.";
        }

        if (NetworkTools.Missing() is { } missing)
        {
            return missing + ".";
        }

        if (!File.Exists("/dev/net/tun"))
        {
            return "/dev/net/tun is missing: the kernel has no TUN driver for the wire.";
        }

        // A few tries: the first namespaces made on a machine also mount /run/netns, and two processes doing that at once
        // (CI's lanes) can see one of them refused once.
        var probe = $"ingest-faults-probe-{Environment.ProcessId.ToString(CultureInfo.InvariantCulture)}";
        var said = "";
        for (var attempt = 0; attempt < 3; attempt++)
        {
            (var exit, said) = NetworkTools.TryRun("ip", ["netns", "add", probe]);
            if (exit == 0)
            {
                NetworkTools.TryRun("ip", ["netns", "del", probe]);
                return null;
            }

            Thread.Sleep(TimeSpan.FromMilliseconds(200));
        }

        return $"`ip netns add` is refused here: {said.Trim()}";
    }

    /// <summary>Why the network cannot be made now: <see cref="MachineRefusal"/>, or a namespace, a link or an address
    /// of its own exists already (another run, or someone else's) — it is never made over, nor removed.</summary>
    public static string? Refusal()
    {
        if (MachineRefusal() is { } machine)
        {
            return machine;
        }

        var namespaces = NetworkTools.Run("ip", ["netns", "list"]).Split('\n').Select(l => l.Split(' ')[0]).ToHashSet(StringComparer.Ordinal);
        foreach (var space in new[] { FrontEndNamespace, BackEndNamespace })
        {
            if (namespaces.Contains(space))
            {
                return $"network namespace {space} exists already (another run, or someone else's): delete it or wait.";
            }
        }

        foreach (var link in new[] { FrontEndLegLink, BackEndLegLink, FrontEndTun, BackEndTun })
        {
            if (NetworkTools.TryRun("ip", ["link", "show", "dev", link]).Exit == 0)
            {
                return $"network interface {link} exists already (another run, or someone else's): delete it or wait.";
            }
        }

        foreach (var subnet in Subnets)
        {
            var used = NetworkTools.Run("ip", ["-4", "-o", "addr", "show", "to", subnet]) + NetworkTools.Run("ip", ["-4", "route", "show", "root", subnet]);
            if (used.Trim().Length > 0)
            {
                return $"{subnet} is in use in this namespace already, the faults' addresses would clash: {used.Trim()}";
            }
        }

        return null;
    }

    /// <summary>Makes the namespaces, the legs and the wire; on a failure, removes whatever it had made and throws.</summary>
    public static FaultNetwork Create()
    {
        if (Refusal() is { } refusal)
        {
            throw new InvalidOperationException(refusal);
        }

        var network = new FaultNetwork();
        try
        {
            network.Build();
            return network;
        }
        catch
        {
            network.Remove();
            throw;
        }
    }

    /// <summary>Puts <paramref name="fault"/> on the wire. <paramref name="backEndPort"/>: the port whose connections a
    /// black hole kills.</summary>
    public void Apply(Fault fault, int backEndPort)
    {
        switch (fault.Kind)
        {
            case FaultKind.Latency or FaultKind.Reorder:
                _wire!.Impairment = fault.Impairment;
                break;
            case FaultKind.Loss:
                Both(space => Rules(space, "netdev", $"chain ingress {{ type filter hook ingress device \"{WireDevice}\" priority filter; numgen random mod 100 < {fault.Percent} drop; }}"));
                break;
            case FaultKind.Duplicate:
                // The copy is routed to the peer again over the wire; nf_dup marks it, so it is never copied twice.
                Rules(FrontEndNamespace, "ip", Duplicating(BackEndWire, fault.Percent));
                Rules(BackEndNamespace, "ip", Duplicating(FrontEndWire, fault.Percent));
                break;
            case FaultKind.Partition:
                Both(space => Rules(space, "netdev", $"chain ingress {{ type filter hook ingress device \"{WireDevice}\" priority filter; policy drop; }}"));
                break;
            case FaultKind.BlackHole:
                Rules(BackEndNamespace, "inet", $"chain input {{ type filter hook input priority filter; iifname \"{WireDevice}\" tcp flags & (syn | ack) == syn drop; }}");
                // ss -K aborts the front-end's sockets to the back-end (their peer gets a reset, which the back-end may
                // see; the front-end sees its connections fail, as when the kernel gives up on a dead peer).
                NetworkTools.Run("ip", ["netns", "exec", FrontEndNamespace, "ss", "-K", "-t", "dst", BackEndWire, "dport", "=", ":" + backEndPort.ToString(CultureInfo.InvariantCulture)]);
                break;
            case FaultKind.Bandwidth:
                Both(space =>
                {
                    // A bucket of 16 KB and at most 100 ms of queue: beyond, the kernel drops, as a slow link's router does.
                    NetworkTools.Run("tc", ["-n", space, "qdisc", "replace", "dev", WireDevice, "root", "tbf", "rate", $"{fault.RateKilobits}kbit", "burst", "16kb", "latency", "100ms"]);
                    _shaped.Add(space);
                });
                break;
        }
    }

    /// <summary>Lifts whatever <see cref="Apply"/> put on the wire.</summary>
    public void Lift()
    {
        _wire!.Impairment = WireImpairment.None;
        foreach (var (space, family) in _tables)
        {
            NetworkTools.Run("ip", ["netns", "exec", space, "nft", "delete", "table", family, Table]);
        }

        _tables.Clear();
        foreach (var space in _shaped)
        {
            NetworkTools.Run("tc", ["-n", space, "qdisc", "del", "dev", WireDevice, "root"]);
        }

        _shaped.Clear();
    }

    public ValueTask DisposeAsync()
    {
        Remove();
        return ValueTask.CompletedTask;
    }

    private static string Duplicating(string peer, int percent) =>
        $"chain output {{ type filter hook output priority filter; oifname \"{WireDevice}\" numgen random mod 100 < {percent} dup to {peer} device \"{WireDevice}\"; }}";

    private static void Both(Action<string> inNamespace)
    {
        inNamespace(FrontEndNamespace);
        inNamespace(BackEndNamespace);
    }

    private void Rules(string space, string family, string chain)
    {
        NetworkTools.Nft(space, $"table {family} {Table} {{\n    {chain}\n}}\n");
        _tables.Add((space, family));
    }

    private void Build()
    {
        foreach (var (space, legLink, labEnd, serviceEnd) in new[]
        {
            (FrontEndNamespace, FrontEndLegLink, LabToFrontEnd, FrontEndLeg),
            (BackEndNamespace, BackEndLegLink, LabToBackEnd, BackEndLeg),
        })
        {
            NetworkTools.Run("ip", ["netns", "add", space]);
            _namespaces.Add(space);
            NetworkTools.Run("ip", ["-n", space, "link", "set", "lo", "up"]);
            NetworkTools.Run("ip", ["link", "add", legLink, "type", "veth", "peer", "name", "leg", "netns", space]);
            _links.Add(legLink);
            NetworkTools.Run("ip", ["addr", "add", labEnd + Prefix, "dev", legLink]);
            NetworkTools.Run("ip", ["link", "set", legLink, "up"]);
            NetworkTools.Run("ip", ["-n", space, "addr", "add", serviceEnd + Prefix, "dev", "leg"]);
            NetworkTools.Run("ip", ["-n", space, "link", "set", "leg", "up"]);
        }

        var frontEnd = Tun(FrontEndTun, FrontEndNamespace, FrontEndWire);
        try
        {
            _wire = new Wire(frontEnd, Tun(BackEndTun, BackEndNamespace, BackEndWire));
        }
        catch
        {
            frontEnd.Dispose();
            throw;
        }
    }

    /// <summary>A TUN device made here, moved into <paramref name="space"/> as the wire's device, with its address.</summary>
    private static TunDevice Tun(string name, string space, string address)
    {
        var device = TunDevice.Create(name);
        try
        {
            NetworkTools.Run("ip", ["link", "set", "dev", name, "netns", space, "name", WireDevice]);
            NetworkTools.Run("ip", ["-n", space, "addr", "add", address + Prefix, "dev", WireDevice]);
            NetworkTools.Run("ip", ["-n", space, "link", "set", WireDevice, "up"]);
            return device;
        }
        catch
        {
            device.Dispose();
            throw;
        }
    }

    /// <summary>Takes down everything this network made, past any failure: the wire (its devices go with it), whatever
    /// still runs in its namespaces (the services are stopped before; nothing may keep a namespace alive), the legs, the
    /// namespaces.</summary>
    private void Remove()
    {
        _wire?.Dispose();
        _wire = null;
        foreach (var space in _namespaces)
        {
            KillWhatRunsIn(space);
        }

        // The legs first, synchronously: a namespace's links go with it only when the kernel gets round to it, and a run
        // straight after this one would find them still there.
        foreach (var link in _links)
        {
            NetworkTools.TryRun("ip", ["link", "del", link]);
        }

        foreach (var space in _namespaces)
        {
            NetworkTools.TryRun("ip", ["netns", "del", space]);
        }

        _links.Clear();
        _namespaces.Clear();
        _tables.Clear();
        _shaped.Clear();
    }

    private static void KillWhatRunsIn(string space)
    {
        var (_, pids) = NetworkTools.TryRun("ip", ["netns", "pids", space]);
        foreach (var line in pids.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!int.TryParse(line, NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                continue;
            }

            try
            {
                using var process = Process.GetProcessById(pid);
                process.Kill(entireProcessTree: true);
                process.WaitForExit(TimeSpan.FromSeconds(5));
            }
            catch (ArgumentException)
            {
                // It ended meanwhile.
            }
            catch (InvalidOperationException)
            {
                // It ended meanwhile.
            }
        }
    }
}
