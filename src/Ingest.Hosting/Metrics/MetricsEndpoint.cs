using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Metrics;

/// <summary>
/// <c>GET /metrics</c> (and HEAD; any other method is a 405) as middleware ahead of every API style (the raw style
/// has no routing), answered on the metrics port only when one is configured. On a port of its own (<paramref name="exclusive"/>) nothing else
/// answers there; on the management port the request guards keep the other operational endpoints there.
/// </summary>
internal sealed class MetricsEndpoint(MetricsCollector collector, ResponseWriter writer, int port, bool exclusive)
{
    public const string Path = Routes.Metrics;

    /// <summary>The text exposition format Prometheus scrapes.</summary>
    public const string ContentType = "text/plain; version=0.0.4; charset=utf-8";

    public Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        var onMetricsPort = port > 0 && context.Connection.LocalPort == port;
        if ((port == 0 || onMetricsPort) && context.Request.Path.Equals(Path, StringComparison.Ordinal))
        {
            var method = context.Request.Method;
            return Routes.Allows(Path, method)
                ? WriteAsync(context.Response)
                : writer.WriteProblemAsync(context.Response, Routes.MethodNotAllowed(Path, method));
        }

        if (onMetricsPort && exclusive)
        {
            context.Response.StatusCode = StatusCodes.Status404NotFound;
            return Task.CompletedTask;
        }

        return next(context);
    }

    private async Task WriteAsync(HttpResponse response)
    {
        // Rendered straight into the response's pipe (buffered until the flush), without a string or a byte
        // array of the whole text; chunked, since the length is known only once it is written.
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = ContentType;
        collector.WriteTo(response.BodyWriter);
        await response.BodyWriter.FlushAsync();
    }
}
