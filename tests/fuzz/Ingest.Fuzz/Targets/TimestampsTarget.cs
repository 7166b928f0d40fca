using System.Globalization;
using System.Text;
using Ingest.Core.Validation;

namespace Ingest.Fuzz.Targets;

/// <summary>
/// RFC 3339 timestamps (<see cref="Timestamps.TryParse"/>). Input: the text of a "timestamp" member. Properties: a
/// parsed time is UTC and comes back the same from its own RFC 3339 form.
/// </summary>
internal sealed class TimestampsTarget : IFuzzTarget
{
    public string Name => "Timestamps";

    public void Run(ReadOnlySpan<byte> input)
    {
        var text = Encoding.UTF8.GetString(input);
        if (!Timestamps.TryParse(text, out var utc))
        {
            return;
        }

        FuzzPropertyException.Check(utc.Kind == DateTimeKind.Utc, $"'{text}' parses to UTC");
        var again = utc.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture);
        FuzzPropertyException.Check(Timestamps.TryParse(again, out var reparsed) && reparsed == utc, $"'{text}' -> '{again}' parses back to the same instant");
    }
}
