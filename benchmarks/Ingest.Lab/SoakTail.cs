using System.Globalization;
using System.Text;
using Ingest.Lab.Results;

namespace Ingest.Lab;

/// <summary>
/// Places a soak's slowest seconds against what the probe saw in them, and names the likeliest cause of each:
/// a GC pause, thread-pool growth, other processes or the hypervisor taking the CPU — or none of those, said as
/// such. The reading is a first hint for a person, from one-second series; the series are in the result file.
/// </summary>
internal static class SoakTail
{
    /// <summary>A second whose slowest response is below this is not part of a tail worth explaining.</summary>
    public const double NotableMs = 20;

    /// <summary>Another process (or the hypervisor) taking this many cores in a second is enough to delay the soak on
    /// a small machine.</summary>
    public const double BusyElsewhereCores = 0.25;

    /// <summary>One line on the machine over the whole soak when it was not the soak's alone: the cores other
    /// processes and the hypervisor took on average and at most; empty when they stayed below
    /// <see cref="BusyElsewhereCores"/> on average.</summary>
    public static string Machine(IReadOnlyList<SoakSecond> seconds)
    {
        if (seconds.Count == 0)
        {
            return "";
        }

        var other = seconds.Average(s => s.OtherCores + s.StealCores);
        return other < BusyElsewhereCores
            ? ""
            : string.Create(CultureInfo.InvariantCulture,
                $"    the machine was not the soak's alone: other processes and the hypervisor took {other:0.00} cores on average (at most {seconds.Max(s => s.OtherCores + s.StealCores):0.00}); this soak's latencies are the machine's as much as the stack's\n");
    }

    /// <summary>The <paramref name="count"/> slowest seconds at or above <see cref="NotableMs"/>, one line each.</summary>
    public static string Explain(IReadOnlyList<SoakSecond> seconds, int count = 5)
    {
        var worst = seconds.Where(s => s.MaxLatencyMs >= NotableMs).OrderByDescending(s => s.MaxLatencyMs).Take(count).ToList();
        if (worst.Count == 0)
        {
            return string.Create(CultureInfo.InvariantCulture, $"    no second had a response slower than {NotableMs:0} ms\n");
        }

        var text = new StringBuilder();
        foreach (var s in worst)
        {
            text.Append(CultureInfo.InvariantCulture, $"    second {s.Second}: slowest {Format.Ms(s.MaxLatencyMs)}, {Format.Rps(s.Requests)} responses; ");
            text.Append(CultureInfo.InvariantCulture, $"machine {s.MachineBusyCores:0.00} cores busy, load generator {s.LoadGeneratorCores:0.00}, other processes {s.OtherCores:0.00}, steal {s.StealCores:0.00}");
            foreach (var p in s.Processes)
            {
                text.Append(CultureInfo.InvariantCulture, $"; {p.Process} {p.CpuCores:0.00} cores");
                if (p.GcPauseMs is { } pause)
                {
                    text.Append(CultureInfo.InvariantCulture, $", GC {pause:0.#} ms in {p.Collections ?? 0:0} collection(s)");
                    if (p.Gen2Collections is > 0)
                    {
                        text.Append(CultureInfo.InvariantCulture, $" ({p.Gen2Collections:0} gen2)");
                    }
                }

                if (p.PoolThreads is { } threads)
                {
                    text.Append(CultureInfo.InvariantCulture, $", pool threads {threads:0}");
                }
            }

            text.Append(" -> ").AppendLine(Cause(s, Previous(seconds, s)));
        }

        return text.ToString();
    }

    /// <summary>The likeliest cause of a slow second, in words, from the figures of that second and the one before.</summary>
    public static string Cause(SoakSecond s, SoakSecond? previous)
    {
        var pause = s.Processes.Max(p => p.GcPauseMs ?? 0);
        if (pause >= s.MaxLatencyMs / 2)
        {
            var who = s.Processes.MaxBy(p => p.GcPauseMs ?? 0)!.Process;
            return string.Create(CultureInfo.InvariantCulture, $"GC pause ({who}, {pause:0.#} ms)");
        }

        if (s.StealCores >= BusyElsewhereCores)
        {
            return "the hypervisor (CPU steal)";
        }

        if (s.OtherCores >= BusyElsewhereCores)
        {
            return "other processes on the machine";
        }

        if (previous is not null)
        {
            foreach (var p in s.Processes)
            {
                var before = previous.Processes.FirstOrDefault(q => q.Process == p.Process);
                if (p.PoolThreads is { } now && before?.PoolThreads is { } then && now > then)
                {
                    return string.Create(CultureInfo.InvariantCulture, $"thread-pool injection ({p.Process}, {then:0} -> {now:0} threads)");
                }
            }
        }

        return pause > 0
            ? string.Create(CultureInfo.InvariantCulture, $"not explained by these series (GC paused {pause:0.#} ms)")
            : "not explained by these series";
    }

    private static SoakSecond? Previous(IReadOnlyList<SoakSecond> seconds, SoakSecond s)
    {
        for (var i = 0; i < seconds.Count; i++)
        {
            if (seconds[i].Second == s.Second)
            {
                return i > 0 ? seconds[i - 1] : null;
            }
        }

        return null;
    }
}
