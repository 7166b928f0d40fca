using Ingest.Core.Configuration;
using Ingest.Core.Security;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Internal;

/// <summary>Start-up checks of the <c>Limits</c>, <c>Management</c> and <c>Security</c> sections.</summary>
internal sealed class HostingOptionsValidator : IValidateOptions<LimitsOptions>, IValidateOptions<ManagementOptions>, IValidateOptions<SecurityOptions>
{
    public ValidateOptionsResult Validate(string? name, LimitsOptions o) =>
        new OptionChecks(LimitsOptions.SectionName)
            .Range(nameof(o.MaxRequestHeadersTotalSize), o.MaxRequestHeadersTotalSize, 1024, 1024 * 1024)
            .Range(nameof(o.MaxRequestHeaderCount), o.MaxRequestHeaderCount, 1, 10_000)
            .Range(nameof(o.MinRequestBodyBytesPerSecond), o.MinRequestBodyBytesPerSecond, 0, int.MaxValue, "0 turns the check off")
            .Range(nameof(o.MinRequestBodyGraceSeconds), o.MinRequestBodyGraceSeconds, 2, 3_600, "Kestrel needs a grace period above 1 s")
            .Range(nameof(o.RequestHeadersTimeoutSeconds), o.RequestHeadersTimeoutSeconds, 1, 3_600)
            .Range(nameof(o.KeepAliveTimeoutSeconds), o.KeepAliveTimeoutSeconds, 1, 86_400)
            .Range(nameof(o.MaxConcurrentConnections), o.MaxConcurrentConnections, 0, 10_000_000, "0 means unlimited")
            .Range(nameof(o.RequestsPerSecondPerConnection), o.RequestsPerSecondPerConnection, 0, 10_000_000, "0 means no limit")
            .Range(nameof(o.MaxJsonDepth), o.MaxJsonDepth, 1, 1_000)
            .Range(nameof(o.ShutdownTimeoutSeconds), o.ShutdownTimeoutSeconds, 1, 3_600)
            .Result();

    public ValidateOptionsResult Validate(string? name, ManagementOptions o) =>
        new OptionChecks(ManagementOptions.SectionName).Range(nameof(o.Port), o.Port, 0, 65_535, "0 serves them with everything else").Result();

    public ValidateOptionsResult Validate(string? name, SecurityOptions o)
    {
        var checks = new OptionChecks(SecurityOptions.SectionName);
        if (o.SharedKey is { Length: > 0 and < 16 })
        {
            checks.Fail($"{checks.Key(nameof(o.SharedKey))} is shorter than 16 characters: use a long random secret.");
        }

        return checks.Result();
    }
}
