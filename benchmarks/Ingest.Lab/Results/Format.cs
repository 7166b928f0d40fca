using System.Globalization;

namespace Ingest.Lab.Results;

/// <summary>How figures are written in tables: one place, so console, Markdown and HTML agree.</summary>
internal static class Format
{
    public static string Rps(double value) => double.IsNaN(value) ? "-" : value.ToString(value >= 100 ? "N0" : "N1", CultureInfo.InvariantCulture);

    public static string RpsSpread(Spread s) => s.Count == 0 ? "-" : s.Count == 1 ? Rps(s.Median) : $"{Rps(s.Median)} ({Rps(s.Min)}–{Rps(s.Max)})";

    public static string Ms(double value) => double.IsNaN(value) ? "-" : value switch
    {
        < 1 => value.ToString("0.000", CultureInfo.InvariantCulture),
        < 10 => value.ToString("0.00", CultureInfo.InvariantCulture),
        < 100 => value.ToString("0.0", CultureInfo.InvariantCulture),
        _ => value.ToString("N0", CultureInfo.InvariantCulture),
    } + " ms";

    public static string MsSpread(Spread s) => s.Count == 0 ? "-" : s.Count == 1 ? Ms(s.Median) : $"{Ms(s.Median)} ({Ms(s.Min)}–{Ms(s.Max)})";

    public static string Mb(double bytes) => double.IsNaN(bytes) ? "-" : (bytes / (1024 * 1024)).ToString("N0", CultureInfo.InvariantCulture) + " MB";

    public static string Cores(double cores) => double.IsNaN(cores) ? "-" : cores.ToString("0.00", CultureInfo.InvariantCulture);

    public static string Ratio(double ratio) => double.IsNaN(ratio) || double.IsInfinity(ratio) ? "-" : ratio.ToString("0.00", CultureInfo.InvariantCulture) + "×";

    /// <summary>A byte count as B below 1 KB, else KB with one decimal (allocations a request).</summary>
    public static string Bytes(double bytes) => double.IsNaN(bytes) ? "-" : bytes < 1024
        ? bytes.ToString("N0", CultureInfo.InvariantCulture) + " B"
        : (bytes / 1024).ToString("N1", CultureInfo.InvariantCulture) + " KB";

    /// <summary>A small share of time to a tenth of a percent (GC pauses).</summary>
    public static string Share(double fraction) => double.IsNaN(fraction) ? "-" : (fraction * 100).ToString("0.0", CultureInfo.InvariantCulture) + "%";

    /// <summary>Seconds as microseconds (CPU a request).</summary>
    public static string Micros(double seconds) => double.IsNaN(seconds) || double.IsInfinity(seconds) ? "-" : (seconds * 1e6).ToString("0.0", CultureInfo.InvariantCulture) + " µs";

    /// <summary>A small count (collections per 1,000 requests): two decimals below 10.</summary>
    public static string Count(double value) => double.IsNaN(value) ? "-" : value.ToString(value >= 10 ? "0" : "0.##", CultureInfo.InvariantCulture);

    /// <summary>The median alone when the repeats agree at the figure's precision, else with (min–max).</summary>
    public static string Spreading(Spread s, Func<double, string> format) =>
        s.Count <= 1 || format(s.Min) == format(s.Max) ? format(s.Median) : $"{format(s.Median)} ({format(s.Min)}–{format(s.Max)})";

    public static string Percent(double fraction) => double.IsNaN(fraction) ? "-" : (fraction * 100).ToString("0", CultureInfo.InvariantCulture) + "%";
}
