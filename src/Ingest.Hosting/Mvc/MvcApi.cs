using System.Diagnostics.CodeAnalysis;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Mvc.Controllers;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Mvc;

/// <summary>Registers MVC with only this role's controllers and the contract's formatters.</summary>
internal static class MvcApi
{
    [RequiresUnreferencedCode("MVC discovers controllers by reflection.")]
    public static void AddServices(IServiceCollection services, ServiceRole role)
    {
        services
            .AddControllers(options =>
            {
                options.InputFormatters.Insert(0, new IngestInputFormatter(role));
                // The actions name their route only; the methods come from Routes, as in the other styles.
                options.Conventions.Add(new RouteMethodsConvention());
                options.OutputFormatters.Insert(0, new IngestOutputFormatter());
                // Answer 406 never: a client that asks for something else still gets the contract's JSON.
                options.ReturnHttpNotAcceptable = false;
            })
            .AddApplicationPart(typeof(MvcApi).Assembly)
            .ConfigureApplicationPartManager(manager =>
            {
                manager.FeatureProviders.Remove(manager.FeatureProviders.OfType<ControllerFeatureProvider>().First());
                manager.FeatureProviders.Add(new RoleControllerFeatureProvider(role));
            });
    }

    [RequiresUnreferencedCode("MVC discovers controllers by reflection.")]
    public static void Map(IEndpointRouteBuilder app, ServiceRole role)
    {
        app.MapControllers();
        Routes.MapFallback(app, role);
    }
}
