using System.Diagnostics.CodeAnalysis;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Mvc.Controllers;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Mvc;

/// <summary>Registers MVC with only this role's controllers, the contract's formatters, and Razor views for the status page.</summary>
internal static class MvcApi
{
    [RequiresUnreferencedCode("MVC discovers controllers by reflection.")]
    public static void AddServices(IServiceCollection services, ServiceRole role)
    {
        services
            .AddControllersWithViews(options =>
            {
                options.InputFormatters.Insert(0, new IngestInputFormatter(role));
                // The actions name their route only; the methods come from Routes, as in the other styles.
                options.Conventions.Add(new RouteMethodsConvention());
                options.OutputFormatters.Insert(0, new IngestOutputFormatter());
                // Answer 406 never: a client that asks for something else still gets the contract's JSON.
                options.ReturnHttpNotAcceptable = false;
                // Views bring TempData's global filter, which registers a response callback on every request, the
                // ingest endpoints' too; nothing here uses TempData, so the contract keeps the cost it had without views.
                RemoveTempDataFilter(options.Filters);
            })
            .AddApplicationPart(typeof(MvcApi).Assembly)
            .ConfigureApplicationPartManager(manager =>
            {
                manager.FeatureProviders.Remove(manager.FeatureProviders.OfType<ControllerFeatureProvider>().First());
                manager.FeatureProviders.Add(new RoleControllerFeatureProvider(role));
            });
    }

    // The filter's type (SaveTempDataAttribute) is internal to MVC, so it is found by name. Views' options set-up
    // adds it before this callback runs (MvcOptions set-ups run in registration order).
    private static void RemoveTempDataFilter(Microsoft.AspNetCore.Mvc.Filters.FilterCollection filters)
    {
        for (var i = filters.Count - 1; i >= 0; i--)
        {
            if (filters[i].GetType().Name == "SaveTempDataAttribute")
            {
                filters.RemoveAt(i);
            }
        }
    }

    [RequiresUnreferencedCode("MVC discovers controllers by reflection.")]
    public static void Map(IEndpointRouteBuilder app, ServiceRole role)
    {
        app.MapControllers();
        Routes.MapFallback(app, role);
    }
}
