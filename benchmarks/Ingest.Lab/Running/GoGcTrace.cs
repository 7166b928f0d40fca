using System.Globalization;
using System.Text.RegularExpressions;

namespace Ingest.Lab.Running;

/// <summary>
/// Reads the line Go's runtime writes to stderr for every collection under <c>GODEBUG=gctrace=1</c>:
/// <c>gc 12 @3.456s 1%: 0.020+0.50+0.010 ms clock, ...</c>. The first and third clock figures are the two
/// stop-the-world phases (sweep termination, mark termination); the middle one is the concurrent mark, during
/// which the program runs (https://pkg.go.dev/runtime#hdr-Environment_Variables).
/// </summary>
internal static partial class GoGcTrace
{
    /// <summary>Environment that turns the trace on; it costs one short line per collection.</summary>
    public const string Variable = "GODEBUG";

    public const string Value = "gctrace=1";

    /// <summary>The stop-the-world time of the collection the line reports, in ms; false for any other line.</summary>
    public static bool TryPauseMilliseconds(string line, out double pauseMs)
    {
        var match = ClockLine().Match(line);
        if (!match.Success)
        {
            pauseMs = 0;
            return false;
        }

        pauseMs = double.Parse(match.Groups["sweep"].ValueSpan, CultureInfo.InvariantCulture)
            + double.Parse(match.Groups["mark"].ValueSpan, CultureInfo.InvariantCulture);
        return true;
    }

    [GeneratedRegex(@"^gc \d+ @[\d.]+s \d+%: (?<sweep>[\d.]+)\+[\d.]+\+(?<mark>[\d.]+) ms clock", RegexOptions.CultureInvariant)]
    private static partial Regex ClockLine();
}
