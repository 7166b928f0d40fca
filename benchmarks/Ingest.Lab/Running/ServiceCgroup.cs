using System.Globalization;

namespace Ingest.Lab.Running;

/// <summary>
/// One service's "container": a cgroup v1 <c>memory</c> group (memory.limit_in_bytes) and a <c>cpu</c> group (CFS quota
/// over a 100 ms period) created for it alone, which the service enters before its program starts (a shell that
/// writes its own pid into both groups, then execs the program), so the runtime reads the limits at start-up as it
/// would in a container. Removed again once the service has stopped. Needs root and writable v1 controllers; cgroup v2
/// (memory.max, cpu.max) is not supported yet: <see cref="Unavailable"/> says so.
/// </summary>
internal sealed class ServiceCgroup : IDisposable
{
    private const long CfsPeriodMicroseconds = 100_000;

    private const string Prefix = "ingest-lab-";

    private static readonly string[] Controllers = ["memory", "cpu"];

    private static int _sequence;

    private readonly string? _memory;
    private readonly string? _cpu;

    private ServiceCgroup(string service, ServiceLimits limits, string? memory, string? cpu)
    {
        Service = service;
        Limits = limits;
        _memory = memory;
        _cpu = cpu;
    }

    public string Service { get; }

    public ServiceLimits Limits { get; }

    /// <summary>Why limits cannot be applied on this machine; null when they can.</summary>
    public static string? Unavailable(ServiceLimits limits)
    {
        if (!OperatingSystem.IsLinux() || !Environment.IsPrivilegedProcess)
        {
            return "--limit needs Linux and root (it creates cgroups)";
        }

        if (limits.MemoryBytes is not null && Mount("memory") is null)
        {
            return "--limit memory=… needs a cgroup v1 'memory' controller mounted (cgroup v2 is not supported yet)";
        }

        return limits.Cpus is not null && Mount("cpu") is null
            ? "--limit cpus=… needs a cgroup v1 'cpu' controller mounted (cgroup v2 is not supported yet)"
            : null;
    }

    public static ServiceCgroup Create(string service, ServiceLimits limits)
    {
        var name = $"{Prefix}{Environment.ProcessId.ToString(CultureInfo.InvariantCulture)}-{Interlocked.Increment(ref _sequence).ToString(CultureInfo.InvariantCulture)}-{service}";
        string? memory = null;
        string? cpu = null;
        if (limits.MemoryBytes is { } bytes)
        {
            memory = Directory.CreateDirectory(Path.Combine(Mount("memory")!, name)).FullName;
            Write(memory, "memory.limit_in_bytes", bytes);
        }

        if (limits.Cpus is { } cpus)
        {
            cpu = Directory.CreateDirectory(Path.Combine(Mount("cpu")!, name)).FullName;
            Write(cpu, "cpu.cfs_period_us", CfsPeriodMicroseconds);
            Write(cpu, "cpu.cfs_quota_us", (long)Math.Round(cpus * CfsPeriodMicroseconds));
        }

        return new ServiceCgroup(service, limits, memory, cpu);
    }

    /// <summary>The command that starts <paramref name="fileName"/> inside the groups.</summary>
    public (string FileName, IReadOnlyList<string> Arguments) Wrap(string fileName, IReadOnlyList<string> arguments)
    {
        // $0 is the name shown by ps; each group given is entered by the shell itself, which then becomes the program.
        var groups = new[] { _memory, _cpu }.Where(g => g is not null).Select(g => g!).ToArray();
        var script = string.Concat(groups.Select((_, i) => $"echo $$ > \"${i + 1}/cgroup.procs\" && ")) + $"shift {groups.Length.ToString(CultureInfo.InvariantCulture)} && exec \"$@\"";
        return ("sh", ["-c", script, "ingest-limit", .. groups, fileName, .. arguments]);
    }

    /// <summary>What the kernel saw of the group: its peak charge (RSS and page cache together) and OOM kills.</summary>
    public (long? PeakBytes, long OomKills) Read()
    {
        if (_memory is null)
        {
            return (null, 0);
        }

        var peak = ReadLong(_memory, "memory.max_usage_in_bytes");
        long kills = 0;
        foreach (var line in ReadLines(_memory, "memory.oom_control"))
        {
            if (line.StartsWith("oom_kill ", StringComparison.Ordinal))
            {
                kills = long.Parse(line["oom_kill ".Length..], CultureInfo.InvariantCulture);
            }
        }

        return (peak, kills);
    }

    public void Dispose()
    {
        foreach (var group in new[] { _memory, _cpu })
        {
            try
            {
                if (group is not null)
                {
                    Directory.Delete(group);
                }
            }
            catch (IOException)
            {
                // Still busy (a process that outlived its stop): the kernel keeps the group until it is empty.
            }
        }
    }

    /// <summary>Groups this lab process made that still exist: none once every topology is disposed.</summary>
    public static IReadOnlyList<string> Remaining() =>
        [.. Controllers.Select(Mount).OfType<string>()
            .SelectMany(mount => Directory.GetDirectories(mount, $"{Prefix}{Environment.ProcessId.ToString(CultureInfo.InvariantCulture)}-*"))];

    /// <summary>Where the cgroup v1 controller is mounted, from /proc/mounts; null when it is not (or only v2 is).</summary>
    private static string? Mount(string controller)
    {
        foreach (var line in File.ReadLines("/proc/mounts"))
        {
            var fields = line.Split(' ');
            if (fields.Length > 3 && fields[2] == "cgroup" && fields[3].Split(',').Contains(controller))
            {
                return fields[1];
            }
        }

        return null;
    }

    private static void Write(string group, string file, long value) =>
        File.WriteAllText(Path.Combine(group, file), value.ToString(CultureInfo.InvariantCulture));

    private static long? ReadLong(string group, string file) =>
        long.TryParse(ReadLines(group, file).FirstOrDefault(), NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : null;

    private static string[] ReadLines(string group, string file)
    {
        try
        {
            return File.ReadAllLines(Path.Combine(group, file));
        }
        catch (IOException)
        {
            return [];
        }
    }
}
