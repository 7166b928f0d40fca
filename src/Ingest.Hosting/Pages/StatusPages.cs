using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace Ingest.Hosting.Pages;

/// <summary>
/// <c>GET /</c> and <c>GET /status</c> (and HEAD) in the styles without MVC, rendered by RazorSlices; the MVC style
/// renders the same model with Razor views (<c>Mvc/StatusController</c>). Served on the management port when
/// <c>Management:Port</c> is set (the request guards keep it there).
/// </summary>
internal static class StatusPages
{
    public const string ContentType = "text/html; charset=utf-8";

    /// <summary>Maps both paths as minimal API endpoints returning the slice.</summary>
    public static void Map(IEndpointRouteBuilder app)
    {
        app.MapMethods(Routes.Root, Routes.MethodsOf(Routes.Root), Page);
        app.MapMethods(Routes.Status, Routes.MethodsOf(Routes.Status), Page);
    }

    /// <summary>Renders the page for the raw style, straight into the response.</summary>
    public static Task WriteAsync(HttpContext context, StatusPageSource source) => ((IResult)Page(source)).ExecuteAsync(context);

    // Typed as the slice's base type, not as its proxy: Native AOT's request delegate generator cannot see types
    // another source generator (RazorSlices') makes, and would emit code that does not compile.
    private static RazorSlices.RazorSlice<StatusPage> Page(StatusPageSource source) => Slices.Status.Create(source.Build(StatusPageSource.SlicesEngine));
}
