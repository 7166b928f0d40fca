using Ingest.Core.Configuration;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Metrics;

/// <summary>Start-up checks of <see cref="MetricsOptions"/>.</summary>
internal sealed class MetricsOptionsValidator(IOptions<ManagementOptions> management) : IValidateOptions<MetricsOptions>
{
    public ValidateOptionsResult Validate(string? name, MetricsOptions options)
    {
        var checks = new OptionChecks(MetricsOptions.SectionName)
            .Range(nameof(options.Port), options.Port, 0, 65_535, "0 serves /metrics on the main endpoints");
        var managementPort = management.Value.Port;
        if (options.Port > 0 && managementPort > 0 && options.Port != managementPort)
        {
            checks.Fail($"{checks.Key(nameof(options.Port))} = {options.Port} and {ManagementOptions.SectionName}:Port = {managementPort}: /metrics is an operational endpoint, served on the management port when one is set; set one of them, or both to the same port.");
        }

        return checks.Result();
    }
}
