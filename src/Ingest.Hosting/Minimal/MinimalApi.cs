using Ingest.Core.Contract;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Minimal;

/// <summary>The contract as minimal API endpoints: routing, parameter binding, handlers returning <see cref="IResult"/>.
/// The ingest routes take their (singleton) handler from the container once, on their first request: a parameter bound
/// from DI is resolved from the request's services, which opens a service scope on every request (allocations the fast
/// path is kept free of: docs/notebook/lean-services.md#boxes-kept-for-the-requests-in-flight-2026-11-27). Not when
/// mapped: that would build the handler, and validate its options, before the host's start-up validation can report a
/// bad setting. Each route is mapped with the methods <see cref="Routes"/> gives it, the handler written at the call:
/// the request delegate generator (on for every build, JIT and Native AOT: Ingest.Hosting.csproj) resolves only a
/// lambda or method group there, not a <see cref="Delegate"/> passed on.</summary>
internal static class MinimalApi
{
    public static void MapFrontEnd(IEndpointRouteBuilder app)
    {
        var services = app.ServiceProvider;
        FrontEndHandler? frontEnd = null;
        app.MapMethods(Routes.IngestEvent, Routes.MethodsOf(Routes.IngestEvent), (HttpRequest request, CancellationToken cancellationToken) =>
            IngestAsync(request, frontEnd ??= services.GetRequiredService<FrontEndHandler>(), cancellationToken));
        app.MapMethods(Routes.Plaintext, Routes.MethodsOf(Routes.Plaintext), static () => TextResult.Hello);
        app.MapMethods(Routes.Json, Routes.MethodsOf(Routes.Json), static (ResponseWriter writer) => new JsonResult<HelloMessage>(new HelloMessage(), writer));
        app.MapMethods(Routes.Values, Routes.MethodsOf(Routes.Values), static (int id) => TextResult.Value);
        MapCommon(app, ServiceRole.FrontEnd);
    }

    public static void MapBackEnd(IEndpointRouteBuilder app)
    {
        var services = app.ServiceProvider;
        BackEndHandler? backEnd = null;
        app.MapMethods(Routes.IngestData, Routes.MethodsOf(Routes.IngestData), (HttpRequest request, CancellationToken cancellationToken) =>
            PersistAsync(request, backEnd ??= services.GetRequiredService<BackEndHandler>(), cancellationToken));
        app.MapMethods(Routes.IngestStats, Routes.MethodsOf(Routes.IngestStats), static (BackEndHandler handler) => new JsonResult<IngestStats>(handler.Stats(), handler.Writer));
        MapCommon(app, ServiceRole.BackEnd);
    }

    private static void MapCommon(IEndpointRouteBuilder app, ServiceRole role)
    {
        app.MapMethods(Routes.Health, Routes.MethodsOf(Routes.Health), static () => TextResult.Healthy);
        Pages.StatusPages.Map(app);
        Routes.MapFallback(app, role);
    }

    private static async Task<IResult> IngestAsync(HttpRequest request, FrontEndHandler handler, CancellationToken cancellationToken)
    {
        var parsed = await handler.ReadAsync(request, cancellationToken);
        var outcome = await handler.ForwardAsync(parsed, cancellationToken);
        return new OutcomeResult<IngestAck>(outcome, static n => new IngestAck { Accepted = n }, handler.Writer);
    }

    private static async Task<IResult> PersistAsync(HttpRequest request, BackEndHandler handler, CancellationToken cancellationToken)
    {
        var parsed = await handler.ReadAsync(request, cancellationToken);
        var outcome = await handler.PersistAsync(parsed, BackEndHandler.IdempotencyKey(request), cancellationToken);
        return new OutcomeResult<PersistAck>(outcome, static n => new PersistAck { Persisted = n }, handler.Writer);
    }
}
