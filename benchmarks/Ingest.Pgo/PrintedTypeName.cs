namespace Ingest.Pgo;

/// <summary>
/// A type name as the runtime prints it in its profile: <c>Ns.Outer`1+Inner[Arg1,Arg2][]</c>, where an argument is a
/// bare name (in a method's name) or a bracketed, assembly-qualified one (<c>[[System.Int32, System.Private.CoreLib,
/// Version=…]]</c>, in histograms), and the whole may be followed by <c>, Assembly, Version=…</c>.
/// </summary>
internal sealed record PrintedTypeName(string Definition, string? Assembly, IReadOnlyList<PrintedTypeName> Arguments, IReadOnlyList<string> Suffixes)
{
    public static PrintedTypeName Parse(string text)
    {
        var position = 0;
        var name = ParseQualified(text, ref position, topLevel: true);
        if (position != text.Length)
        {
            throw new FormatException($"unexpected '{text[position]}' at {position} in '{text}'");
        }

        return name;
    }

    private static PrintedTypeName ParseQualified(string text, ref int position, bool topLevel)
    {
        var name = ParseName(text, ref position);
        if (position < text.Length && text[position] == ',')
        {
            // ", Assembly, Version=…, Culture=…, PublicKeyToken=…": runs to the end of the text at the top level,
            // to the closing bracket inside an argument.
            var end = topLevel ? text.Length : text.IndexOf(']', position);
            if (end < 0)
            {
                throw new FormatException($"an unclosed argument in '{text}'");
            }

            var assembly = text[(position + 1)..end].Split(',')[0].Trim();
            position = end;
            return name with { Assembly = assembly };
        }

        return name;
    }

    private static PrintedTypeName ParseName(string text, ref int position)
    {
        var start = position;
        while (position < text.Length && text[position] is not ('[' or ']' or ',' or '*' or '&'))
        {
            position++;
        }

        var definition = text[start..position];
        if (definition.Length == 0)
        {
            throw new FormatException($"an empty type name at {start} in '{text}'");
        }

        var arguments = new List<PrintedTypeName>();
        var suffixes = new List<string>();
        while (position < text.Length)
        {
            var c = text[position];
            if (c is '*' or '&')
            {
                suffixes.Add(c.ToString());
                position++;
            }
            else if (c == '[' && position + 1 < text.Length && text[position + 1] is ']' or ',')
            {
                var close = text.IndexOf(']', position);
                suffixes.Add(text[position..(close + 1)]);
                position = close + 1;
            }
            else if (c == '[' && arguments.Count == 0 && suffixes.Count == 0)
            {
                position++;
                while (true)
                {
                    if (text[position] == '[')
                    {
                        position++;
                        arguments.Add(ParseQualified(text, ref position, topLevel: false));
                        Expect(text, ref position, ']');
                    }
                    else
                    {
                        arguments.Add(ParseName(text, ref position));
                    }

                    if (text[position] == ',')
                    {
                        position++;
                        continue;
                    }

                    Expect(text, ref position, ']');
                    break;
                }
            }
            else
            {
                break;
            }
        }

        return new PrintedTypeName(definition, null, arguments, suffixes);
    }

    private static void Expect(string text, ref int position, char expected)
    {
        if (position >= text.Length || text[position] != expected)
        {
            throw new FormatException($"expected '{expected}' at {position} in '{text}'");
        }

        position++;
    }
}
