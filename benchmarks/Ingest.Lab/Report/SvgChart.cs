using System.Globalization;
using System.Net;
using System.Text;

namespace Ingest.Lab.Report;

/// <summary>
/// Minimal SVG charts for the self-contained report: horizontal bars with min–max whiskers, and line charts
/// with optional log axes. No script, no library (none is on the package mirror): the HTML opens anywhere.
/// </summary>
internal static class SvgChart
{
    private const int Width = 860;
    private const int MinLabelWidth = 260;
    private const int MaxLabelWidth = 420;
    private const int BarHeight = 18;
    private const int BarGap = 8;

    public static readonly string[] Palette =
        ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39"];

    /// <summary>One bar per row: the median, with a whisker from min to max; coloured by <paramref name="colors"/> (a colour
    /// per row, e.g. by stack) or else one palette colour per row.</summary>
    public static string Bars(string title, string unit, IReadOnlyList<(string Label, double Median, double Min, double Max, string? Note)> rows, IReadOnlyList<string>? colors = null)
    {
        var labelWidth = LabelWidth(rows.Select(r => r.Label));
        var plotWidth = Width - labelWidth - 120;
        var max = rows.Count == 0 ? 1 : rows.Max(r => double.IsNaN(r.Max) ? 0 : r.Max);
        max = max <= 0 ? 1 : max;
        var height = 40 + (rows.Count * (BarHeight + BarGap));
        var svg = Begin(title, height);
        for (var i = 0; i < rows.Count; i++)
        {
            var (label, median, min, maxValue, note) = rows[i];
            var y = 30 + (i * (BarHeight + BarGap));
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{labelWidth - 8}\" y=\"{y + 13}\" text-anchor=\"end\" class=\"label\">{Escape(label)}</text>");
            if (double.IsNaN(median))
            {
                svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{labelWidth + 4}\" y=\"{y + 13}\" class=\"note\">{Escape(note ?? "not measured")}</text>");
                continue;
            }

            var w = median / max * plotWidth;
            svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{labelWidth}\" y=\"{y}\" width=\"{w:0.#}\" height=\"{BarHeight}\" fill=\"{colors?[i] ?? Palette[i % Palette.Length]}\"><title>{Escape(label)}: {median:N1} {unit} (min {min:N1}, max {maxValue:N1})</title></rect>");
            if (!double.IsNaN(min) && maxValue > min)
            {
                var x1 = labelWidth + (min / max * plotWidth);
                var x2 = labelWidth + (maxValue / max * plotWidth);
                var cy = y + (BarHeight / 2);
                svg.Append(CultureInfo.InvariantCulture, $"<line x1=\"{x1:0.#}\" x2=\"{x2:0.#}\" y1=\"{cy}\" y2=\"{cy}\" class=\"whisker\"/><line x1=\"{x1:0.#}\" x2=\"{x1:0.#}\" y1=\"{y + 3}\" y2=\"{y + BarHeight - 3}\" class=\"whisker\"/><line x1=\"{x2:0.#}\" x2=\"{x2:0.#}\" y1=\"{y + 3}\" y2=\"{y + BarHeight - 3}\" class=\"whisker\"/>");
            }

            var end = labelWidth + Math.Max(w, double.IsNaN(maxValue) ? 0 : maxValue / max * plotWidth);
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{end + 6:0.#}\" y=\"{y + 13}\" class=\"value\">{Number(median)} {Escape(unit)}{(note is null ? "" : " " + Escape(note))}</text>");
        }

        return End(svg);
    }

    /// <summary>Several series of (x, y) points; log axes where asked. Series with no points are listed, not drawn.</summary>
    public static string Lines(string title, string xLabel, string yLabel, IReadOnlyList<(string Name, IReadOnlyList<double[]> Points)> series, bool logX = false, bool logY = false, Func<double, string>? xTick = null)
    {
        const int left = 70;
        const int top = 30;
        const int plotHeight = 260;
        var plotWidth = Width - left - 30;
        var legendRows = (series.Count + 2) / 3;
        var svg = Begin(title, top + plotHeight + 50 + (legendRows * 16));
        var points = series.SelectMany(s => s.Points).Where(p => Valid(p[0], logX) && Valid(p[1], logY)).ToList();
        if (points.Count == 0)
        {
            svg.Append("<text x=\"70\" y=\"60\" class=\"note\">no data</text>");
            return End(svg);
        }

        double Tx(double v) => logX ? Math.Log10(v) : v;
        double Ty(double v) => logY ? Math.Log10(v) : v;
        var (x0, x1) = (points.Min(p => Tx(p[0])), points.Max(p => Tx(p[0])));
        (x0, x1) = logX ? (Math.Floor(x0), Math.Ceiling(x1)) : (x0, x1);
        var (y0, y1) = (logY ? Math.Floor(points.Min(p => Ty(p[1]))) : 0, points.Max(p => Ty(p[1])));
        y1 = logY ? Math.Ceiling(y1) : y1 * 1.05;
        if (x1 <= x0)
        {
            x1 = x0 + 1;
        }

        if (y1 <= y0)
        {
            y1 = y0 + 1;
        }

        double Px(double v) => left + ((Tx(v) - x0) / (x1 - x0) * plotWidth);
        double Py(double v) => top + plotHeight - ((Ty(v) - y0) / (y1 - y0) * plotHeight);

        svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{left}\" y=\"{top}\" width=\"{plotWidth}\" height=\"{plotHeight}\" class=\"frame\"/>");
        foreach (var value in Ticks(y0, y1, logY))
        {
            var py = Py(value);
            svg.Append(CultureInfo.InvariantCulture, $"<line x1=\"{left}\" x2=\"{left + plotWidth}\" y1=\"{py:0.#}\" y2=\"{py:0.#}\" class=\"grid\"/><text x=\"{left - 6}\" y=\"{py + 4:0.#}\" text-anchor=\"end\" class=\"tick\">{Number(value)}</text>");
        }

        foreach (var value in Ticks(x0, x1, logX))
        {
            var px = Px(value);
            svg.Append(CultureInfo.InvariantCulture, $"<line x1=\"{px:0.#}\" x2=\"{px:0.#}\" y1=\"{top + plotHeight}\" y2=\"{top + plotHeight + 4}\" class=\"whisker\"/><text x=\"{px:0.#}\" y=\"{top + plotHeight + 16}\" text-anchor=\"middle\" class=\"tick\">{Escape(xTick?.Invoke(value) ?? Number(value))}</text>");
        }

        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{left + (plotWidth / 2)}\" y=\"{top + plotHeight + 34}\" text-anchor=\"middle\" class=\"axis\">{Escape(xLabel)}</text>");
        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"14\" y=\"{top + (plotHeight / 2)}\" transform=\"rotate(-90 14 {top + (plotHeight / 2)})\" text-anchor=\"middle\" class=\"axis\">{Escape(yLabel)}</text>");

        for (var s = 0; s < series.Count; s++)
        {
            var color = Palette[s % Palette.Length];
            var valid = series[s].Points.Where(p => Valid(p[0], logX) && Valid(p[1], logY)).ToList();
            if (valid.Count > 0)
            {
                var path = string.Join(" ", valid.Select((p, i) => string.Create(CultureInfo.InvariantCulture, $"{(i == 0 ? "M" : "L")}{Px(p[0]):0.#},{Py(p[1]):0.#}")));
                svg.Append(CultureInfo.InvariantCulture, $"<path d=\"{path}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"1.6\"><title>{Escape(series[s].Name)}</title></path>");
            }

            var lx = left + ((s % 3) * (plotWidth / 3));
            var ly = top + plotHeight + 50 + ((s / 3) * 16);
            svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{lx}\" y=\"{ly - 9}\" width=\"10\" height=\"10\" fill=\"{color}\"/><text x=\"{lx + 14}\" y=\"{ly}\" class=\"legend\">{Escape(series[s].Name)}{(valid.Count == 0 ? " (no data)" : "")}</text>");
        }

        return End(svg);
    }

    /// <summary>
    /// One row per ratio: a dot at the ratio and a bar over its interval, on a log axis with a line at 1 (level), coloured
    /// by how the row stands (ahead, level, behind).
    /// </summary>
    public static string Ratios(string title, IReadOnlyList<(string Label, double Ratio, double Lower, double Upper, string Standing)> rows)
    {
        var labelWidth = LabelWidth(rows.Select(r => r.Label));
        var plotLeft = labelWidth + 10;
        var plotWidth = Width - plotLeft - 150;
        var values = rows.SelectMany(r => new[] { r.Ratio, r.Lower, r.Upper }).Where(v => Valid(v, log: true)).Append(1).ToList();
        var (lo, hi) = (Math.Log10(values.Min() / 1.1), Math.Log10(values.Max() * 1.1));
        double Px(double v) => plotLeft + ((Math.Log10(v) - lo) / (hi - lo) * plotWidth);
        var height = 50 + (rows.Count * (BarHeight + BarGap));
        var svg = Begin(title, height);
        var one = Px(1);
        svg.Append(CultureInfo.InvariantCulture, $"<line x1=\"{one:0.#}\" x2=\"{one:0.#}\" y1=\"22\" y2=\"{height - 20}\" class=\"whisker\" stroke-dasharray=\"4 3\"/><text x=\"{one:0.#}\" y=\"{height - 6}\" text-anchor=\"middle\" class=\"tick\">1× (level)</text>");
        for (var i = 0; i < rows.Count; i++)
        {
            var (label, ratio, lower, upper, standing) = rows[i];
            var y = 30 + (i * (BarHeight + BarGap));
            var cy = y + (BarHeight / 2);
            var color = StandingColors.GetValueOrDefault(standing, "#777");
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{labelWidth - 8}\" y=\"{y + 13}\" text-anchor=\"end\" class=\"label\">{Escape(label)}</text>");
            if (!Valid(ratio, log: true))
            {
                continue;
            }

            if (Valid(lower, log: true) && Valid(upper, log: true))
            {
                svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{Px(lower):0.#}\" y=\"{y + 4}\" width=\"{Math.Max(1, Px(upper) - Px(lower)):0.#}\" height=\"{BarHeight - 8}\" fill=\"{color}\" opacity=\"0.35\"/>");
            }

            svg.Append(CultureInfo.InvariantCulture, $"<circle cx=\"{Px(ratio):0.#}\" cy=\"{cy}\" r=\"5\" fill=\"{color}\"><title>{Escape(label)}: {ratio:0.00}× ({lower:0.00}–{upper:0.00}), {Escape(standing)}</title></circle>");
            var end = Valid(upper, log: true) ? Math.Max(Px(upper), Px(ratio)) : Px(ratio);
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{end + 8:0.#}\" y=\"{y + 13}\" class=\"value\">{ratio:0.00}× {Escape(standing)}</text>");
        }

        return End(svg);
    }

    // Room for the longest label at the labels' 12 px (about 6.5 px a character in a sans-serif face), within bounds: an
    // SVG cannot size a column to its text, and a label wider than its column was cut off at the chart's left edge.
    private static int LabelWidth(IEnumerable<string> labels) =>
        Math.Clamp(16 + (int)Math.Ceiling(6.5 * labels.Select(l => l.Length).DefaultIfEmpty(0).Max()), MinLabelWidth, MaxLabelWidth);

    /// <summary>Green ahead, grey level, red behind.</summary>
    private static readonly Dictionary<string, string> StandingColors = new()
    {
        ["ahead"] = "#2a8a3a",
        ["level"] = "#777777",
        ["behind"] = "#c0392b",
    };

    public static string Escape(string text) => WebUtility.HtmlEncode(text);

    /// <summary>Tick values for an axis spanning [lo, hi] (in log10 units when <paramref name="log"/>): every decade on a
    /// log axis, a 1-2-5 step giving about five ticks on a linear one.</summary>
    internal static IEnumerable<double> Ticks(double lo, double hi, bool log)
    {
        if (log)
        {
            for (var decade = Math.Ceiling(lo - 1e-9); decade <= hi + 1e-9; decade++)
            {
                yield return Math.Pow(10, decade);
            }

            yield break;
        }

        var step = NiceStep((hi - lo) / 5);
        for (var tick = Math.Ceiling(lo / step) * step; tick <= hi + (step * 1e-9); tick += step)
        {
            yield return tick;
        }
    }

    private static double NiceStep(double raw)
    {
        var magnitude = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        var fraction = raw / magnitude;
        return magnitude * fraction switch
        {
            < 1.5 => 1,
            < 3.5 => 2,
            < 7.5 => 5,
            _ => 10,
        };
    }

    private static bool Valid(double v, bool log) => !double.IsNaN(v) && !double.IsInfinity(v) && (!log || v > 0);

    private static string Number(double value) => value switch
    {
        >= 1_000_000 => (value / 1_000_000).ToString("0.#", CultureInfo.InvariantCulture) + "M",
        >= 10_000 => (value / 1000).ToString("0.#", CultureInfo.InvariantCulture) + "k",
        >= 100 => value.ToString("0", CultureInfo.InvariantCulture),
        >= 1 => value.ToString("0.##", CultureInfo.InvariantCulture),
        _ => value.ToString("0.###", CultureInfo.InvariantCulture),
    };

    private static StringBuilder Begin(string title, int height)
    {
        var svg = new StringBuilder();
        svg.Append(CultureInfo.InvariantCulture, $"<figure><figcaption>{Escape(title)}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {Width} {height}\" width=\"{Width}\" height=\"{height}\">");
        return svg;
    }

    private static string End(StringBuilder svg) => svg.Append("</svg></figure>").ToString();
}
