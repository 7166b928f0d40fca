namespace Ingest.Core.Parsing;

/// <summary>
/// Turns the classic payload's inner document — JSON that may quote strings with single quotes, as the
/// 2016 test sent it — into strict JSON that System.Text.Json accepts. Newtonsoft.Json reads single
/// quotes itself; System.Text.Json never will (dotnet/runtime#29327), so this is the one place that
/// handles them for it.
/// </summary>
/// <remarks>
/// Only the quoting changes: inside a single-quoted string an unescaped <c>"</c> becomes <c>\"</c> and
/// <c>\'</c> becomes <c>'</c>; every other escape is copied as it is, so its meaning is kept and an
/// invalid escape is still reported by the strict parser. Everything outside strings is copied verbatim
/// and validated by that parser.
/// </remarks>
public static class RelaxedJson
{
    /// <summary>True when <paramref name="relaxed"/> needs <see cref="TryToStrict"/> at all.</summary>
    public static bool NeedsRewrite(ReadOnlySpan<char> relaxed) => relaxed.Contains('\'');

    /// <summary>The largest output <see cref="TryToStrict"/> can produce for an input of this length.</summary>
    public static int MaxStrictLength(int relaxedLength) => checked(relaxedLength * 2);

    /// <summary>
    /// Rewrites <paramref name="relaxed"/> into <paramref name="strict"/>, which must hold
    /// <see cref="MaxStrictLength"/> characters. Returns false when a string is not terminated.
    /// </summary>
    public static bool TryToStrict(ReadOnlySpan<char> relaxed, Span<char> strict, out int written)
    {
        var o = 0;
        var i = 0;
        while (i < relaxed.Length)
        {
            var c = relaxed[i++];
            if (c is '"' or '\'')
            {
                if (!TryCopyString(relaxed, ref i, quote: c, strict, ref o))
                {
                    written = o;
                    return false;
                }
            }
            else
            {
                strict[o++] = c;
            }
        }

        written = o;
        return true;
    }

    // Copies one string whose opening quote was just read, writing it double-quoted.
    private static bool TryCopyString(ReadOnlySpan<char> input, ref int i, char quote, Span<char> output, ref int o)
    {
        output[o++] = '"';
        while (i < input.Length)
        {
            var c = input[i++];
            if (c == quote)
            {
                output[o++] = '"';
                return true;
            }

            if (c == '\\')
            {
                if (i == input.Length)
                {
                    return false;
                }

                var escaped = input[i++];
                if (escaped == '\'')
                {
                    // \' is not a JSON escape; in a relaxed document it means a plain single quote.
                    output[o++] = '\'';
                }
                else
                {
                    output[o++] = '\\';
                    output[o++] = escaped;
                }
            }
            else if (c == '"')
            {
                // Only reachable inside a single-quoted string: a literal double quote.
                output[o++] = '\\';
                output[o++] = '"';
            }
            else
            {
                output[o++] = c;
            }
        }

        return false;
    }
}
