using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>Validates the settings every custom transport shares, plus each transport's own.</summary>
internal sealed class NativeTransportOptionsValidator :
    IValidateOptions<LinuxEpollOptions>,
    IValidateOptions<IoUringOptions>,
    IValidateOptions<LibuvOptions>
{
    private const int MinRingEntries = 8;
    private const int MaxRingEntries = 32768;

    public ValidateOptionsResult Validate(string? name, LinuxEpollOptions options)
    {
        var failures = Common(LinuxEpollOptions.SectionName, options);
        OptionsChecks.AioSendNeedsDeferSend(failures, LinuxEpollOptions.SectionName, options.AioSend, options.DeferSend);

        return Result(failures);
    }

    public ValidateOptionsResult Validate(string? name, IoUringOptions options)
    {
        var failures = Common(IoUringOptions.SectionName, options);
        var key = $"{IoUringOptions.SectionName}:RingEntries";
        OptionsChecks.Range(failures, key, options.RingEntries, MinRingEntries, MaxRingEntries);
        if (options.RingEntries > 0 && (options.RingEntries & (options.RingEntries - 1)) != 0)
        {
            failures.Add($"{key} must be a power of two; it is {options.RingEntries}. Change {key}.");
        }

        return Result(failures);
    }

    public ValidateOptionsResult Validate(string? name, LibuvOptions options) => Result(Common(LibuvOptions.SectionName, options));

    private static List<string> Common(string section, NativeTransportOptions options)
    {
        var failures = new List<string>();
        OptionsChecks.Range(failures, $"{section}:ThreadCount", options.ThreadCount, 1, NativeTransportOptions.MaxThreadCount);
        OptionsChecks.Range(failures, $"{section}:Backlog", options.Backlog, 1, int.MaxValue);
        OptionsChecks.BufferSize(failures, $"{section}:MaxReadBufferSize", options.MaxReadBufferSize);
        OptionsChecks.BufferSize(failures, $"{section}:MaxWriteBufferSize", options.MaxWriteBufferSize);
        OptionsChecks.Defined(failures, $"{section}:ApplicationSchedulingMode", options.ApplicationSchedulingMode);
        return failures;
    }

    private static ValidateOptionsResult Result(List<string> failures) =>
        failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
}
