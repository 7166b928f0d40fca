using System.Globalization;

namespace Ingest.Lab.Faults;

/// <summary>
/// The front-end's circuit as its <c>/metrics</c> tells it: forwards it answered at once with 503 count as
/// <c>ingest_forwards_total{outcome="backend-unavailable"}</c>, which counts an open circuit's refusals and the back-end's
/// own 503s. The faults' back-end never answers 503 (its file store does not fail, and nothing sheds at the load they
/// run), so the count rises exactly while the circuit is open. Read a few times a second during a fault.
/// </summary>
internal sealed class CircuitWatch
{
    private const string Series = "ingest_forwards_total{";
    private const string Refused = "outcome=\"backend-unavailable\"";

    private readonly List<(DateTimeOffset At, double Refusals)> _readings = [];

    /// <summary>Records the count read at <paramref name="at"/>; a page that did not come is skipped.</summary>
    public void Record(DateTimeOffset at, string? page)
    {
        if (page is not null)
        {
            _readings.Add((at, Refusals(page)));
        }
    }

    /// <summary>When the circuit first refused, and when it last did: the readings at which the count had risen since
    /// the one before; nulls when it never refused.</summary>
    public (DateTimeOffset? FirstRefusal, DateTimeOffset? LastRefusal) Refusals()
    {
        DateTimeOffset? first = null, last = null;
        for (var i = 1; i < _readings.Count; i++)
        {
            if (_readings[i].Refusals > _readings[i - 1].Refusals)
            {
                first ??= _readings[i].At;
                last = _readings[i].At;
            }
        }

        return (first, last);
    }

    /// <summary>The refusals so far on a Prometheus text page (0 before the first: the series appears with it).</summary>
    public static double Refusals(string page)
    {
        double total = 0;
        foreach (var raw in page.AsSpan().EnumerateLines())
        {
            var line = raw.Trim();
            var space = line.LastIndexOf(' ');
            if (line.StartsWith(Series, StringComparison.Ordinal) && line.Contains(Refused, StringComparison.Ordinal) && space > 0
                && double.TryParse(line[(space + 1)..], NumberStyles.Float, CultureInfo.InvariantCulture, out var value))
            {
                total += value;
            }
        }

        return total;
    }
}
