using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Mvc;

namespace Ingest.Hosting.Mvc;

/// <summary><c>GET /healthz</c> for both roles.</summary>
[IngestRole(ServiceRole.FrontEnd)]
[IngestRole(ServiceRole.BackEnd)]
public sealed class HealthController : ControllerBase
{
    [Route(Routes.Health)]
    public ContentResult Health() => Content(Routes.HealthyText, Core.Parsing.MediaTypes.PlainText);
}
