using Ingest.Core;
using Ingest.Core.Configuration;
using Ingest.Core.Serialization;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Internal;

/// <summary>Start-up checks of <see cref="IngestOptions"/>, including combinations that cannot work in this process.</summary>
internal sealed class IngestOptionsValidator : IValidateOptions<IngestOptions>
{
    public ValidateOptionsResult Validate(string? name, IngestOptions options)
    {
        var checks = new OptionChecks(IngestOptions.SectionName)
            .Defined(nameof(options.Serializer), options.Serializer)
            .Defined(nameof(options.ApiStyle), options.ApiStyle)
            .Range(nameof(options.MaxBodyBytes), options.MaxBodyBytes, 1, int.MaxValue)
            .Range(nameof(options.MaxBatchEvents), options.MaxBatchEvents, 1, 1_000_000);

        if (Enum.IsDefined(options.Serializer) && !IngestSerializers.IsSupported(options.Serializer))
        {
            checks.Fail($"{checks.Key(nameof(options.Serializer))} = {options.Serializer} needs reflection, which {ReflectionSupport.MissingIn} does not have: " +
                $"use {nameof(SerializerKind.SystemTextJsonSourceGen)}.");
        }

        if (options.ApiStyle == ApiStyle.Mvc && !ReflectionSupport.IsEnabled)
        {
            checks.Fail($"{checks.Key(nameof(options.ApiStyle))} = Mvc cannot run in {ReflectionSupport.MissingIn} (MVC needs reflection): use Minimal or Raw.");
        }

        return checks.Result();
    }
}
