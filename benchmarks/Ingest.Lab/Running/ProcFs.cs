using System.Globalization;

namespace Ingest.Lab.Running;

/// <summary>Reads a process's CPU time and resident memory from /proc, as top and ps do (with the processes it started).</summary>
internal static class ProcFs
{
    // USER_HZ: the unit of utime/stime in /proc/<pid>/stat. 100 on every Linux architecture .NET runs on
    // (it is fixed by the kernel ABI, unlike CONFIG_HZ).
    private const double ClockTicksPerSecond = 100.0;

    /// <summary>
    /// utime + stime of the process (all its threads) and of the processes it started (nginx's workers: a service of
    /// several processes is measured whole), in seconds; null when it is gone. A child's time counts while it lives.
    /// </summary>
    public static double? CpuSeconds(int pid) => CpuTimes(pid) is { } times ? times.User + times.Kernel : null;

    /// <summary><see cref="CpuSeconds"/> split into user (utime) and kernel (stime) time; null when it is gone.</summary>
    public static (double User, double Kernel)? CpuTimes(int pid)
    {
        if (OwnCpuTimes(pid) is not { } own)
        {
            return null;
        }

        foreach (var child in Children(pid))
        {
            if (CpuTimes(child) is { } times)
            {
                own = (own.User + times.User, own.Kernel + times.Kernel);
            }
        }

        return own;
    }

    /// <summary>
    /// Context switches of every thread of the process and of the processes it started, voluntary (it waited: a
    /// blocking read, a futex) and not (preempted); null when it is gone. Threads that have ended are not counted, so
    /// read it over a phase in which the services keep their threads.
    /// </summary>
    public static long? ContextSwitches(int pid)
    {
        long total = 0;
        try
        {
            foreach (var task in Directory.EnumerateDirectories($"/proc/{pid}/task"))
            {
                foreach (var line in File.ReadLines(Path.Combine(task, "status")))
                {
                    if (line.StartsWith("voluntary_ctxt_switches:", StringComparison.Ordinal) || line.StartsWith("nonvoluntary_ctxt_switches:", StringComparison.Ordinal))
                    {
                        total += long.Parse(line.AsSpan(line.IndexOf(':') + 1).Trim(), CultureInfo.InvariantCulture);
                    }
                }
            }
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }

        return total + Children(pid).Sum(child => ContextSwitches(child) ?? 0);
    }

    /// <summary>The processes <paramref name="pid"/>'s main thread started and that still run (the kernel's
    /// /proc/&lt;pid&gt;/task/&lt;pid&gt;/children); none when it is gone or started none.</summary>
    public static IReadOnlyList<int> Children(int pid)
    {
        try
        {
            return [.. File.ReadAllText($"/proc/{pid}/task/{pid}/children").Split(' ', StringSplitOptions.RemoveEmptyEntries)
                .Select(child => int.Parse(child, CultureInfo.InvariantCulture))];
        }
        catch (IOException)
        {
            return [];
        }
        catch (UnauthorizedAccessException)
        {
            return [];
        }
    }

    private static (double User, double Kernel)? OwnCpuTimes(int pid)
    {
        string stat;
        try
        {
            stat = File.ReadAllText($"/proc/{pid}/stat");
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }

        // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        // After the name: state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        return (long.Parse(fields[11], CultureInfo.InvariantCulture) / ClockTicksPerSecond, long.Parse(fields[12], CultureInfo.InvariantCulture) / ClockTicksPerSecond);
    }

    /// <summary>The whole machine's CPU time since boot from /proc/stat, in seconds: busy (everything but idle and
    /// I/O wait) and stolen by the hypervisor (a VM's host running someone else); null when unreadable.</summary>
    public static (double Busy, double Steal)? MachineCpuSeconds()
    {
        try
        {
            // "cpu  user nice system idle iowait irq softirq steal guest guest_nice", in USER_HZ ticks; guest time is
            // already inside user.
            var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries);
            long Field(int i) => i < fields.Length ? long.Parse(fields[i], CultureInfo.InvariantCulture) : 0;
            var busy = Field(1) + Field(2) + Field(3) + Field(6) + Field(7) + Field(8);
            return (busy / ClockTicksPerSecond, Field(8) / ClockTicksPerSecond);
        }
        catch (IOException)
        {
            return null;
        }
    }

    /// <summary>The one-minute load average from /proc/loadavg; null when unreadable.</summary>
    public static double? LoadAverage()
    {
        try
        {
            return double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            return null;
        }
    }

    /// <summary>VmRSS (resident set) in bytes, with the processes it started (as <see cref="CpuSeconds"/>); null when
    /// the process is gone.</summary>
    public static long? ResidentBytes(int pid)
    {
        var own = StatusKilobytes(pid, "VmRSS:") * 1024;
        return own is null ? null : own + Children(pid).Sum(child => ResidentBytes(child) ?? 0);
    }

    /// <summary>Threads of the process; null when it is gone.</summary>
    public static long? Threads(int pid) => StatusKilobytes(pid, "Threads:");

    /// <summary>Open file descriptors (sockets included); null when the process is gone.</summary>
    public static int? OpenFiles(int pid)
    {
        try
        {
            return Directory.GetFiles($"/proc/{pid}/fd").Length;
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>VmHWM (peak resident set since start) in bytes, with the peaks of the processes it started (each its
    /// own, so an upper bound of the whole's peak); null when the process is gone.</summary>
    public static long? PeakResidentBytes(int pid)
    {
        var own = StatusKilobytes(pid, "VmHWM:") * 1024;
        return own is null ? null : own + Children(pid).Sum(child => PeakResidentBytes(child) ?? 0);
    }

    // Reads a number from /proc/<pid>/status; "kB" is dropped where the line has it.
    private static long? StatusKilobytes(int pid, string key)
    {
        try
        {
            foreach (var line in File.ReadLines($"/proc/{pid}/status"))
            {
                if (line.StartsWith(key, StringComparison.Ordinal))
                {
                    return long.Parse(line.AsSpan(key.Length).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture);
                }
            }
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }

        return null;
    }
}
