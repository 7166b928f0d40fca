using Ingest.Core.Configuration;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Metrics;

/// <summary>Start-up checks of <see cref="MetricsOptions"/>.</summary>
internal sealed class MetricsOptionsValidator : IValidateOptions<MetricsOptions>
{
    public ValidateOptionsResult Validate(string? name, MetricsOptions options) =>
        new OptionChecks(MetricsOptions.SectionName)
            .Range(nameof(options.Port), options.Port, 0, 65_535, "0 serves /metrics on the main endpoints")
            .Result();
}
