using System.Text;
using Ingest.Core.Contract;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Raw;

/// <summary>
/// The contract as one terminal middleware: a switch over the route and method, the body read straight from the
/// request pipe, no routing and no model binding. What is left is the cost of Kestrel and our own code.
/// </summary>
internal sealed class RawApi(ServiceRole role, ResponseWriter writer, IServiceProvider services)
{
    private static readonly byte[] Hello = Encoding.UTF8.GetBytes(HelloMessage.Text);
    private static readonly byte[] Value = Encoding.UTF8.GetBytes(Routes.ValueText);
    private static readonly byte[] Healthy = Encoding.UTF8.GetBytes(Routes.HealthyText);

    // Resolved once: the handlers are singletons, and a lookup per request is what this style avoids.
    private readonly FrontEndHandler? _frontEnd = role == ServiceRole.FrontEnd ? Resolve<FrontEndHandler>(services) : null;
    private readonly BackEndHandler? _backEnd = role == ServiceRole.BackEnd ? Resolve<BackEndHandler>(services) : null;
    private readonly Pages.StatusPageSource _pages = Resolve<Pages.StatusPageSource>(services);

    public Task InvokeAsync(HttpContext context)
    {
        var request = context.Request;
        // Paths compared exactly (no routing, so no case folding); the route is one of Routes' constants.
        var route = Routes.Match(role, request.Path.Value ?? "", StringComparison.Ordinal);
        if (route is null)
        {
            return writer.WriteProblemAsync(context.Response, Routes.NotFound());
        }

        if (!Routes.Allows(route, request.Method))
        {
            return writer.WriteProblemAsync(context.Response, Routes.MethodNotAllowed(route, request.Method));
        }

        return route switch
        {
            Routes.IngestEvent => _frontEnd!.HandleAsync(context),
            Routes.IngestData => _backEnd!.HandleAsync(context),
            Routes.IngestStats => writer.WriteJsonAsync(context.Response, _backEnd!.Stats()),
            Routes.Json => writer.WriteJsonAsync(context.Response, new HelloMessage()),
            Routes.Plaintext => ResponseWriter.WriteTextAsync(context.Response, Hello),
            Routes.Values => ResponseWriter.WriteTextAsync(context.Response, Value),
            Routes.Health => ResponseWriter.WriteTextAsync(context.Response, Healthy),
            Routes.Root or Routes.Status => Pages.StatusPages.WriteAsync(context, _pages),
            _ => throw new System.Diagnostics.UnreachableException($"Routes.Match returned '{route}', which the raw style does not serve."),
        };
    }

    private static T Resolve<T>(IServiceProvider services)
        where T : notnull => (T)(services.GetService(typeof(T)) ?? throw new InvalidOperationException($"{typeof(T).Name} is not registered."));
}
