namespace Ingest.Core.Configuration;

/// <summary>
/// Collects start-up validation failures with messages that name the configuration key to change
/// (<c>Forwarding:TimeoutMilliseconds</c>), which is what a user reading a failed start needs.
/// </summary>
public sealed class OptionChecks(string section)
{
    private readonly List<string> _failures = [];

    public IReadOnlyList<string> Failures => _failures;

    public string Key(string name) => $"{section}:{name}";

    public OptionChecks Range(string name, long value, long min, long max, string? hint = null)
    {
        if (value < min || value > max)
        {
            Fail($"{Key(name)} = {value} is outside {min}..{max}{(hint is null ? "." : ": " + hint)}");
        }

        return this;
    }

    /// <summary>Checks a setting that may be left unset (null), which passes.</summary>
    public OptionChecks Range(string name, long? value, long min, long max, string? hint = null) =>
        value is { } v ? Range(name, v, min, max, hint) : this;

    public OptionChecks Defined<TEnum>(string name, TEnum value)
        where TEnum : struct, Enum
    {
        if (!Enum.IsDefined(value))
        {
            Fail($"{Key(name)} = {value} is not one of {string.Join(", ", Enum.GetNames<TEnum>())}.");
        }

        return this;
    }

    public OptionChecks Defined<TEnum>(string name, TEnum? value)
        where TEnum : struct, Enum => value is { } v ? Defined(name, v) : this;

    /// <summary>Checks the text configured for an enum key before the binder reads it (unset passes): the binder's own
    /// failure for a name the enum lacks says neither which names it has nor why one is gone.</summary>
    /// <param name="name">The key within the section.</param>
    /// <param name="configured">The key's text as configured; null when unset.</param>
    /// <param name="hint">Appended to the message, e.g. what replaced a value that was removed; null for none.</param>
    public OptionChecks Named<TEnum>(string name, string? configured, string? hint = null)
        where TEnum : struct, Enum
    {
        // As the binder reads it: any case, or a number (which Defined checks once bound).
        if (configured is { Length: > 0 } && !Enum.TryParse<TEnum>(configured, ignoreCase: true, out _))
        {
            Fail($"{Key(name)} = {configured} is not one of {string.Join(", ", Enum.GetNames<TEnum>())}{(hint is null ? "." : ": " + hint)}");
        }

        return this;
    }

    public OptionChecks Fail(string message)
    {
        _failures.Add(message);
        return this;
    }

    public Microsoft.Extensions.Options.ValidateOptionsResult Result() =>
        _failures.Count == 0
            ? Microsoft.Extensions.Options.ValidateOptionsResult.Success
            : Microsoft.Extensions.Options.ValidateOptionsResult.Fail(_failures);
}
