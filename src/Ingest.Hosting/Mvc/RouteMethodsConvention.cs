using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Mvc.ActionConstraints;
using Microsoft.AspNetCore.Mvc.ApplicationModels;
using Microsoft.AspNetCore.Routing;

namespace Ingest.Hosting.Mvc;

/// <summary>
/// Gives each action the methods <see cref="Routes"/> gives its route, as <c>[HttpGet]</c> would, so the controllers
/// name only their route (<c>[Route(Routes.Json)]</c>) and every style answers the same methods from one table.
/// </summary>
internal sealed class RouteMethodsConvention : IActionModelConvention
{
    public void Apply(ActionModel action)
    {
        foreach (var selector in action.Selectors)
        {
            var route = selector.AttributeRouteModel?.Template
                ?? throw new InvalidOperationException($"{action.DisplayName} has no [Route]: every Ingest action names one of Routes' paths.");
            var methods = Routes.MethodsOf(route);
            selector.ActionConstraints.Add(new HttpMethodActionConstraint(methods));
            selector.EndpointMetadata.Add(new HttpMethodMetadata(methods));
        }
    }
}
