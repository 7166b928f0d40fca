using System.Globalization;

namespace Ingest.Lab.Running;

/// <summary>
/// What a container runtime would give each service (<c>--limit memory=128M,cpus=1</c>): a memory limit and a CPU
/// quota, applied to every front-end and back-end process of a scenario, each in a cgroup of its own (the load
/// generator, proxies and stores run unlimited). Either part may be left out.
/// </summary>
internal sealed record ServiceLimits(long? MemoryBytes, double? Cpus)
{
    public static readonly ServiceLimits None = new(null, null);

    public bool IsNone => MemoryBytes is null && Cpus is null;

    public ServiceLimits WithMemory(long? bytes) => this with { MemoryBytes = bytes };

    /// <summary>"memory=128M,cpus=1", as it was given.</summary>
    public string Describe() =>
        IsNone ? "none" : string.Join(",", new[]
        {
            MemoryBytes is { } m ? $"memory={(m / (1024 * 1024)).ToString(CultureInfo.InvariantCulture)}M" : null,
            Cpus is { } c ? $"cpus={c.ToString("0.##", CultureInfo.InvariantCulture)}" : null,
        }.Where(p => p is not null));

    /// <summary>Parses "memory=128M,cpus=1" (memory in K, M or G; cpus a positive number, fractions allowed).</summary>
    public static ServiceLimits? Parse(string text, out string? error)
    {
        var limits = None;
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var (key, value) = part.IndexOf('=') is var at and > 0 ? (part[..at], part[(at + 1)..]) : (part, "");
            switch (key)
            {
                case "memory" when Bytes(value) is { } bytes:
                    limits = limits with { MemoryBytes = bytes };
                    break;
                case "cpus" when double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var cpus) && cpus is >= 0.01 and <= 1024:
                    limits = limits with { Cpus = cpus };
                    break;
                default:
                    error = $"--limit: '{part}' is not memory=<size with K, M or G, at least 4M> or cpus=<number of cores, e.g. 1 or 0.5>.";
                    return null;
            }
        }

        error = limits.IsNone ? "--limit needs memory=… and/or cpus=…, e.g. memory=128M,cpus=1." : null;
        return limits.IsNone ? null : limits;
    }

    private static long? Bytes(string text)
    {
        if (text.Length < 2)
        {
            return null;
        }

        var unit = char.ToUpperInvariant(text[^1]) switch
        {
            'K' => 1024L,
            'M' => 1024L * 1024,
            'G' => 1024L * 1024 * 1024,
            _ => 0L,
        };
        return unit > 0 && long.TryParse(text[..^1], NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number * unit >= MinimumMemoryBytes
            ? number * unit
            : null;
    }

    /// <summary>Below this no service of ours even starts; a smaller limit is a typo.</summary>
    public const long MinimumMemoryBytes = 4L * 1024 * 1024;
}
