using System.CommandLine;
using System.CommandLine.Help;
using System.Globalization;

namespace Ingest.LoadGen.Cli;

/// <summary>Turns the command line into <see cref="LoadOptions"/> plus the CLI-only switches, on System.CommandLine
/// (<see cref="CommandLineSymbols"/>): first what the parser refuses (an unknown or misspelled option, a value that
/// does not parse), then, once everything parses, what <see cref="LoadOptions.Validate"/> refuses. Every error names
/// the flag that caused it.</summary>
internal static class CommandLine
{
    /// <summary>No response files: a value starting with '@' is a value, as it always was here.</summary>
    private static readonly ParserConfiguration Parser = new() { ResponseFileTokenReplacer = null };

    public static ParsedCommand Parse(IReadOnlyList<string> args)
    {
        var symbols = new CommandLineSymbols();
        var result = symbols.Root.Parse(WithUrlFlag(args, symbols.Root), Parser);
        if (result.Action is HelpAction || result.Errors.Count > 0)
        {
            // Nothing to bind: a value that did not parse has none.
            return new ParsedCommand(new LoadOptions(), null, false, result.Action is HelpAction, [.. result.Errors.Select(e => e.Message)]) { Result = result };
        }

        var command = symbols.Bind(result);
        return command with { Errors = command.Options.Validate() };
    }

    public static bool TryParseDuration(string text, out TimeSpan value)
    {
        value = default;
        text = text.Trim();
        (string Suffix, double Seconds)[] units = [("us", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600)];
        var scale = 1.0;
        foreach (var (suffix, seconds) in units)
        {
            if (text.EndsWith(suffix, StringComparison.OrdinalIgnoreCase) &&
                (suffix != "s" || !text.EndsWith("ms", StringComparison.OrdinalIgnoreCase)) &&
                (suffix != "s" || !text.EndsWith("us", StringComparison.OrdinalIgnoreCase)))
            {
                text = text[..^suffix.Length];
                scale = seconds;
                break;
            }
        }

        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !double.IsFinite(number) ||
            number * scale > TimeSpan.MaxValue.TotalSeconds / 2)
        {
            return false;
        }

        value = TimeSpan.FromSeconds(number * scale);
        return true;
    }

    /// <summary>The target may also be given as the only positional argument (as with wrk): that token becomes
    /// <c>--url</c> before parsing. The root takes no positional argument itself, because one would swallow a misspelled
    /// option (<c>--conections 8</c>) instead of leaving it to the parser, which suggests the right one. A positional
    /// token is neither an option nor an option's value, and has a scheme (<c>://</c>).</summary>
    private static List<string> WithUrlFlag(IReadOnlyList<string> args, Command root)
    {
        var takesValue = root.Options.Where(o => o.Arity.MaximumNumberOfValues > 0).SelectMany(o => o.Aliases.Append(o.Name)).ToHashSet(StringComparer.Ordinal);
        var rewritten = new List<string>(args.Count + 1);
        var positional = false;
        for (var i = 0; i < args.Count; i++)
        {
            if (takesValue.Contains(args[i]) && i + 1 < args.Count)
            {
                rewritten.Add(args[i++]);
            }
            else if (!positional && !args[i].StartsWith('-') && args[i].Contains("://", StringComparison.Ordinal))
            {
                rewritten.Add("--url");
                positional = true;
            }

            rewritten.Add(args[i]);
        }

        return rewritten;
    }
}
