using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

internal sealed class SocketsOptionsValidator : IValidateOptions<SocketsOptions>
{
    private const string Section = SocketsOptions.SectionName;

    public ValidateOptionsResult Validate(string? name, SocketsOptions options)
    {
        var failures = new List<string>();
        OptionsChecks.Range(failures, $"{Section}:IOQueueCount", options.IOQueueCount, 0, NativeTransportOptions.MaxThreadCount);
        OptionsChecks.Range(failures, $"{Section}:Backlog", options.Backlog, 1, int.MaxValue);
        OptionsChecks.BufferSize(failures, $"{Section}:MaxReadBufferSize", options.MaxReadBufferSize);
        OptionsChecks.BufferSize(failures, $"{Section}:MaxWriteBufferSize", options.MaxWriteBufferSize);
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
