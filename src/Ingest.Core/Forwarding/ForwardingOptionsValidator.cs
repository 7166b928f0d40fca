using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>Checks what data annotations cannot: the back-end list. Messages name the key to change.</summary>
public sealed class ForwardingOptionsValidator : IValidateOptions<ForwardingOptions>
{
    public ValidateOptionsResult Validate(string? name, ForwardingOptions options)
    {
        if (options.BackEnds.Length == 0)
        {
            return ValidateOptionsResult.Fail(
                $"{ForwardingOptions.SectionName}:{nameof(ForwardingOptions.BackEnds)} is empty: set at least one back-end URL, " +
                $"e.g. --{ForwardingOptions.SectionName}:{nameof(ForwardingOptions.BackEnds)}:0=http://127.0.0.1:5001");
        }

        var failures = new List<string>();
        for (var i = 0; i < options.BackEnds.Length; i++)
        {
            if (!Uri.TryCreate(options.BackEnds[i], UriKind.Absolute, out var uri) || uri.Scheme != Uri.UriSchemeHttp)
            {
                failures.Add(
                    $"{ForwardingOptions.SectionName}:{nameof(ForwardingOptions.BackEnds)}:{i} = '{options.BackEnds[i]}' is not an absolute http:// URL " +
                    "(Ingest forwards over cleartext HTTP/1.1 or h2c).");
            }
        }

        if (options.UnixSocketPath is { Length: 0 })
        {
            failures.Add($"{ForwardingOptions.SectionName}:{nameof(ForwardingOptions.UnixSocketPath)} is empty: remove it for TCP or give a socket path.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
