using System.Net.Sockets;
using Ingest.Core.Problems;
using Ingest.Core.Security;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Internal;

/// <summary>
/// Who may call what, before any endpoint runs: the management port serves only the operational endpoints (health,
/// metrics, the status page)
/// (and they only it), the front-end's ingest endpoint may require an API key, and the back-end's data endpoint
/// requires the shared key except over a Unix domain socket. Installed only when one of them is configured.
/// </summary>
internal sealed class RequestGuards(
    ServiceRole role,
    IOptions<SecurityOptions> security,
    IOptions<ManagementOptions> management,
    ResponseWriter writer)
{
    private readonly KeyComparer _apiKeys = new(security.Value.ApiKeys);
    private readonly KeyComparer _sharedKey = new(security.Value.SharedKey is { } key ? [key] : []);
    private readonly int _managementPort = management.Value.Port;

    public bool Enabled => _managementPort > 0 || !_apiKeys.IsEmpty || !_sharedKey.IsEmpty;

    public Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        var path = context.Request.Path.Value ?? "";
        if (_managementPort > 0 && IsManagementPath(path) != (context.Connection.LocalPort == _managementPort))
        {
            return writer.WriteProblemAsync(context.Response, Routes.NotFound());
        }

        if (role == ServiceRole.FrontEnd && !_apiKeys.IsEmpty && path == Routes.IngestEvent
            && !_apiKeys.Matches(context.Request.Headers[SecurityOptions.ApiKeyHeader]))
        {
            return Unauthorized(context, $"Send a valid API key in the {SecurityOptions.ApiKeyHeader} header.");
        }

        if (role == ServiceRole.BackEnd && !_sharedKey.IsEmpty && path == Routes.IngestData && !OverUnixSocket(context)
            && !_sharedKey.Matches(context.Request.Headers[SecurityOptions.SharedKeyHeader]))
        {
            return Unauthorized(context, $"Only front-ends holding the shared key ({SecurityOptions.SharedKeyHeader}) may forward here.");
        }

        return next(context);
    }

    // The status page too: it tells the configuration, which belongs with the other operational endpoints.
    private static bool IsManagementPath(string path) => path is Routes.Health or Routes.Metrics or Routes.Root or Routes.Status;

    // Who can connect to the socket file is decided by its file permissions.
    private static bool OverUnixSocket(HttpContext context) =>
        context.Features.Get<IConnectionEndPointFeature>()?.LocalEndPoint is UnixDomainSocketEndPoint;

    private Task Unauthorized(HttpContext context, string detail)
    {
        context.Response.Headers.WWWAuthenticate = "ApiKey";
        return writer.WriteProblemAsync(context.Response, IngestProblem.Create(ProblemKind.Unauthorized, detail));
    }
}
