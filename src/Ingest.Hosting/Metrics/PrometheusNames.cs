using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;

namespace Ingest.Hosting.Metrics;

/// <summary>
/// OpenTelemetry instrument names and units as Prometheus names, the way the OpenTelemetry Prometheus exporter
/// spells them: dots become underscores, the unit becomes a suffix (<c>s</c> → <c>_seconds</c>, <c>By</c> →
/// <c>_bytes</c>, annotations like <c>{request}</c> are dropped), counters end in <c>_total</c>.
/// </summary>
internal static class PrometheusNames
{
    public static string For(Instrument instrument, MetricKind kind)
    {
        var name = new StringBuilder(instrument.Name.Length + 16);
        foreach (var c in instrument.Name)
        {
            name.Append(IsNameChar(c, name.Length == 0) ? c : '_');
        }

        var unit = UnitSuffix(instrument.Unit);
        if (unit.Length > 0 && !name.ToString().EndsWith("_" + unit, StringComparison.Ordinal))
        {
            name.Append('_').Append(unit);
        }

        if (kind is MetricKind.CounterDelta or MetricKind.CounterTotal && !name.ToString().EndsWith("_total", StringComparison.Ordinal))
        {
            name.Append("_total");
        }

        return name.ToString();
    }

    public static bool IsNameChar(char c, bool first) =>
        c is (>= 'a' and <= 'z') or (>= 'A' and <= 'Z') or '_' or ':' || (!first && c is >= '0' and <= '9');

    private static string UnitSuffix(string? unit) => unit switch
    {
        null or "" or "1" => "",
        "s" => "seconds",
        "ms" => "milliseconds",
        "us" => "microseconds",
        "ns" => "nanoseconds",
        "By" => "bytes",
        "KiBy" => "kibibytes",
        "MiBy" => "mebibytes",
        _ when unit.StartsWith('{') => "",
        _ => Sanitize(unit),
    };

    private static string Sanitize(string unit)
    {
        var text = new StringBuilder(unit.Length);
        foreach (var c in unit)
        {
            text.Append(IsNameChar(c, first: false) ? c : '_');
        }

        return text.ToString();
    }

    public static string EscapeHelp(string help) => help.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal);

    public static string Number(double value) => value switch
    {
        double.PositiveInfinity => "+Inf",
        double.NegativeInfinity => "-Inf",
        _ when double.IsNaN(value) => "NaN",
        _ => value.ToString("R", CultureInfo.InvariantCulture),
    };
}
