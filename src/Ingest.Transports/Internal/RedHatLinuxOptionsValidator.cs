using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>Validates <c>Kestrel:RedHatLinux</c>, also in a build without the package, so a bad value is named first.</summary>
internal sealed class RedHatLinuxOptionsValidator : IValidateOptions<RedHatLinuxOptions>
{
    public ValidateOptionsResult Validate(string? name, RedHatLinuxOptions options)
    {
        const string Section = RedHatLinuxOptions.SectionName;
        var failures = new List<string>();
        OptionsChecks.Range(failures, $"{Section}:ThreadCount", options.ThreadCount, 1, NativeTransportOptions.MaxThreadCount);
        OptionsChecks.Defined(failures, $"{Section}:ApplicationSchedulingMode", options.ApplicationSchedulingMode);

        // The package itself would silently turn AioSend off when DeferSend is off; say so instead.
        OptionsChecks.AioSendNeedsDeferSend(failures, Section, options.AioSend, options.DeferSend);

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
