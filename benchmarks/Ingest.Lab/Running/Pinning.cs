namespace Ingest.Lab.Running;

/// <summary>
/// Which CPUs each side may use. With <c>--pin</c> on a machine of two or more cores the load generator gets
/// the first core and the services the others, so they do not steal each other's time slices; without it the
/// kernel schedules everything everywhere (the default, and what most users run).
/// </summary>
internal sealed record Pinning(string? LoadCpus, string? ServiceCpus)
{
    public static readonly Pinning None = new(null, null);

    public static Pinning For(bool pin, int cores) =>
        pin && cores >= 2 ? new Pinning("0", cores == 2 ? "1" : $"1-{cores - 1}") : None;

    public bool Enabled => LoadCpus is not null;

    public string Describe() => Enabled ? $"load generator on CPU {LoadCpus}, services on CPU {ServiceCpus} (taskset)" : "not pinned: the kernel schedules every process on every core";

    /// <summary>Wraps a command in taskset when <paramref name="cpus"/> is set.</summary>
    public static (string FileName, IReadOnlyList<string> Arguments) Wrap(string? cpus, string fileName, IReadOnlyList<string> arguments) =>
        cpus is null ? (fileName, arguments) : ("taskset", ["-c", cpus, fileName, .. arguments]);
}
