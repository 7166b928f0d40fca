using Ingest.Hosting.Internal;
using Ingest.Hosting.Pages;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Mvc;

/// <summary><c>GET /</c> and <c>GET /status</c> for both roles: the status page as an MVC Razor view with a layout
/// (Pages/Views), the way the seed's view-engine benchmark rendered its pages.</summary>
[IngestRole(ServiceRole.FrontEnd)]
[IngestRole(ServiceRole.BackEnd)]
public sealed class StatusController : Controller
{
    /// <summary>The view's path in this assembly (Razor class library paths are relative to the project).</summary>
    private const string ViewPath = "/Pages/Views/Status.cshtml";

    [Route(Routes.Root)]
    [Route(Routes.Status)]
    public ViewResult Index() =>
        View(ViewPath, HttpContext.RequestServices.GetRequiredService<StatusPageSource>().Build(StatusPageSource.MvcEngine));
}
