using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace Ingest.Lab.Cli;

/// <summary>
/// The kinds of option the lab's commands take: seconds (<c>5</c> or <c>5s</c>), whole numbers above 0, numbers, and
/// switches. Each value option is nullable, so that "not given" stays visible to whoever applies the defaults, and
/// carries its default in its description as the help prints it ("[default: …]"): a <see cref="TimeSpan"/> default
/// would print as 00:00:02, and a default that depends on the set is not one value. A value that does not parse is
/// refused with a message naming the flag as it was typed.
/// </summary>
internal static class OptionKinds
{
    /// <summary>The most seconds any lab phase takes from the command line: an hour.</summary>
    private const double MaxSeconds = 3600;

    public static string WithDefault(string description, string value) => $"{description} [default: {value}]";

    public static string Seconds(TimeSpan value) => value.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + "s";

    public static string Invariant(double value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>Seconds from 0 (<paramref name="allowZero"/>) or above 0, to an hour, as <c>5</c> or <c>5s</c>.</summary>
    public static Option<TimeSpan?> SecondsOption(string name, string description, bool allowZero) => new(name)
    {
        Description = description,
        HelpName = "seconds",
        CustomParser = result =>
        {
            var text = Value(result);
            var number = text.EndsWith('s') ? text[..^1] : text;
            return double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds) && (seconds > 0 || (allowZero && seconds == 0)) && seconds <= MaxSeconds
                ? TimeSpan.FromSeconds(seconds)
                : Refuse<TimeSpan?>(result, $"expects seconds{(allowZero ? " (0 or more)" : " above 0")}, at most 3600, e.g. 5 or 5s; got '{text}'.");
        },
    };

    public static Option<int?> PositiveIntOption(string name, string description, params string[] aliases) => new(name, aliases)
    {
        Description = description,
        HelpName = "N",
        CustomParser = result => int.TryParse(Value(result), NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value > 0
            ? value
            : Refuse<int?>(result, $"expects a whole number above 0; got '{Value(result)}'."),
    };

    /// <summary>A number within (<paramref name="above"/>, <paramref name="atMost"/>]; outside it, the error is
    /// <paramref name="message"/>.</summary>
    public static Option<double?> NumberOption(string name, string description, double above, double atMost, string message) => new(name)
    {
        Description = description,
        HelpName = "number",
        CustomParser = result => double.TryParse(Value(result), NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value > above && value <= atMost
            ? value
            : Reject<double?>(result, message),
    };

    /// <summary>A flag without a value (<c>--pin</c>, never <c>--pin true</c>).</summary>
    public static Option<bool> Switch(string name, string description) => new(name)
    {
        Description = WithDefault(description, "off"),
        Arity = ArgumentArity.Zero,
    };

    /// <summary>Service settings on top of a scenario's, <c>Key=Value</c>, repeatable, the last of a key winning; a token
    /// without <c>=</c> is refused with <paramref name="command"/>'s name and <paramref name="example"/>.</summary>
    public static Option<IReadOnlyDictionary<string, string>> SettingsOption(string name, string command, string description, string example) => new(name)
    {
        Description = WithDefault($"{description} Key=Value, repeatable, e.g. {example}.", "none"),
        HelpName = "Key=Value",
        Arity = ArgumentArity.OneOrMore,
        AllowMultipleArgumentsPerToken = false,
        CustomParser = result =>
        {
            var settings = new Dictionary<string, string>(StringComparer.Ordinal);
            foreach (var token in result.Tokens)
            {
                var equals = token.Value.IndexOf('=', StringComparison.Ordinal);
                if (equals <= 0)
                {
                    return Reject<IReadOnlyDictionary<string, string>>(result, $"{command}: {name} takes Key=Value, e.g. {example}.");
                }

                settings[token.Value[..equals]] = token.Value[(equals + 1)..];
            }

            return settings;
        },
    };

    public static string Value(ArgumentResult result) => result.Tokens[0].Value;

    /// <summary>Records "<c>flag</c> <paramref name="problem"/>" with the flag as it was typed (<c>--repeat</c> or
    /// <c>--repeats</c>), and no value.</summary>
    public static T? Refuse<T>(ArgumentResult result, string problem) =>
        Reject<T>(result, $"{(result.Parent as OptionResult)?.IdentifierToken?.Value ?? result.Argument.Name} {problem}");

    /// <summary>Records <paramref name="message"/> as it is, and no value.</summary>
    public static T? Reject<T>(ArgumentResult result, string message)
    {
        result.AddError(message);
        return default;
    }
}
