using Ingest.Core.Contract;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace Ingest.Hosting.Minimal;

/// <summary>The contract as minimal API endpoints: routing, parameter binding from DI, handlers returning <see cref="IResult"/>.</summary>
internal static class MinimalApi
{
    public static void MapFrontEnd(IEndpointRouteBuilder app)
    {
        app.MapPost(Routes.IngestEvent, IngestAsync);
        app.MapGet(Routes.Plaintext, static () => TextResult.Hello);
        app.MapGet(Routes.Json, static (ResponseWriter writer) => new JsonResult<HelloMessage>(new HelloMessage(), writer));
        app.MapGet(Routes.Values, static (int id) => TextResult.Value);
        MapCommon(app);
    }

    public static void MapBackEnd(IEndpointRouteBuilder app)
    {
        app.MapPost(Routes.IngestData, PersistAsync);
        app.MapGet(Routes.IngestStats, static (BackEndHandler handler) => new JsonResult<IngestStats>(handler.Stats(), handler.Writer));
        MapCommon(app);
    }

    private static void MapCommon(IEndpointRouteBuilder app)
    {
        app.MapGet(Routes.Health, static () => TextResult.Healthy);
        app.MapFallback(static (ResponseWriter writer) => new JsonResult<Core.Problems.IngestProblem>(Routes.NotFound(), writer, StatusCodes.Status404NotFound));
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
