using System.Globalization;

namespace Ingest.Core.Validation;

/// <summary>
/// RFC 3339 date-times (section 5.6): <c>2026-11-22T10:00:00Z</c>, <c>2026-11-22T11:00:00.5+01:00</c>. The offset is
/// required — a time without one means nothing to a service in another time zone — and so are the seconds.
/// Fractions longer than .NET's 100 ns are truncated.
/// </summary>
public static class Timestamps
{
    private const int MaxFractionDigits = 7;

    private static readonly string[] Formats = ["yyyy-MM-dd'T'HH:mm:ssK", "yyyy-MM-dd'T'HH:mm:ss.FFFFFFFK"];

    public static bool TryParse(string text, out DateTime utc)
    {
        utc = default;
        if (!HasOffset(text))
        {
            return false;
        }

        var normalized = text.Replace('t', 'T').Replace('z', 'Z');
        var dot = normalized.IndexOf('.', StringComparison.Ordinal);
        if (dot > 0)
        {
            var end = dot + 1;
            while (end < normalized.Length && char.IsAsciiDigit(normalized[end]))
            {
                end++;
            }

            if (end == dot + 1)
            {
                return false;
            }

            if (end - dot - 1 > MaxFractionDigits)
            {
                normalized = normalized[..(dot + 1 + MaxFractionDigits)] + normalized[end..];
            }
        }

        if (!DateTimeOffset.TryParseExact(normalized, Formats, CultureInfo.InvariantCulture, DateTimeStyles.None, out var parsed))
        {
            return false;
        }

        utc = parsed.UtcDateTime;
        return true;
    }

    // "…Z" or "…+hh:mm" / "…-hh:mm" at the end.
    private static bool HasOffset(string text) =>
        text.Length >= 20 && (text[^1] is 'Z' or 'z'
            || (text.Length >= 25 && text[^6] is '+' or '-' && char.IsAsciiDigit(text[^5]) && char.IsAsciiDigit(text[^4]) && text[^3] == ':'
                && char.IsAsciiDigit(text[^2]) && char.IsAsciiDigit(text[^1])));
}
