using System.Runtime;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Ingest.Hosting.Internal;

/// <summary>The effective runtime settings a result depends on, read from the runtime itself rather than
/// from configuration, so the start-up line shows what really runs.</summary>
internal static class RuntimeDescription
{
    public static string GcMode() => GCSettings.IsServerGC ? "Server" : "Workstation";

    public static string Concurrent() => Setting("ConcurrentGC") is true ? "on" : "off";

    /// <summary>DATAS (dynamic adaptation to application sizes) only acts with Server GC.</summary>
    public static string Datas() =>
        GCSettings.IsServerGC && Convert.ToInt64(Setting("GCDynamicAdaptationMode") ?? 0L, System.Globalization.CultureInfo.InvariantCulture) == 1 ? "on" : "off";

    public static string Heaps() => Convert.ToString(Setting("HeapCount") ?? 1, System.Globalization.CultureInfo.InvariantCulture) ?? "1";

    /// <summary>The most the GC lets gen0 grow between collections, in MB: sized from the CPU's cache by default, or
    /// the budget <c>DOTNET_GCgen0size</c> sets (the lean profile's 8 MB); under a memory limit the GC lowers it.</summary>
    public static string Gen0MaxBudget() => Megabytes(Setting("GCGen0MaxBudget"));

    /// <summary>The GC's region size when <c>DOTNET_GCRegionSize</c> sets one (the lean profile's 1 MB); "default" when the
    /// GC picks it (4 MB on a host without a memory limit, smaller under one).</summary>
    public static string RegionSize() => Setting("GCRegionSize") is { } size && Convert.ToInt64(size, System.Globalization.CultureInfo.InvariantCulture) > 0
        ? Megabytes(size)
        : "default";

    public static string Runtime() => RuntimeInformation.FrameworkDescription;

    /// <summary>The processors the runtime uses: a CPU quota (a container's <c>cpus</c>) lowers it.</summary>
    public static string Cpus() => Environment.ProcessorCount.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The memory the GC may use, in MB: the machine's, or under a container's memory limit the GC's hard limit
    /// (75% of it by default).</summary>
    public static string Memory() =>
        (GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024 * 1024)).ToString(System.Globalization.CultureInfo.InvariantCulture) + "MB";

    public static string Aot() => RuntimeFeature.IsDynamicCodeSupported ? "no" : "yes";

    private static string Megabytes(object? bytes) =>
        (Convert.ToDouble(bytes ?? 0L, System.Globalization.CultureInfo.InvariantCulture) / (1024 * 1024)).ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + "MB";

    private static object? Setting(string name) => GC.GetConfigurationVariables().TryGetValue(name, out var value) ? value : null;
}
