using System.Text.Json;

namespace Ingest.Transports.Bench;

/// <summary>
/// TechEmpower's plaintext and JSON tests as one raw request delegate: no routing and no minimal-API binding, so
/// the transport is a larger share of the work per request and differences between transports show.
/// </summary>
internal static class MicroEndpoints
{
    private static ReadOnlySpan<byte> Plaintext => "Hello, World!"u8;

    public static Task HandleAsync(HttpContext context)
    {
        var path = context.Request.Path.Value;
        if (path == "/plaintext")
        {
            var response = context.Response;
            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = "text/plain";
            response.ContentLength = Plaintext.Length;
            var writer = response.BodyWriter;
            Plaintext.CopyTo(writer.GetSpan(Plaintext.Length));
            writer.Advance(Plaintext.Length);
            return Task.CompletedTask;
        }

        if (path == "/json")
        {
            var response = context.Response;
            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = "application/json";

            // A new object per request, serialized per request, as the JSON test's rules require.
            var message = new JsonMessage { Message = "Hello, World!" };
            using var writer = new Utf8JsonWriter(response.BodyWriter);
            JsonSerializer.Serialize(writer, message, BenchJsonContext.Default.JsonMessage);
            return Task.CompletedTask;
        }

        context.Response.StatusCode = StatusCodes.Status404NotFound;
        return Task.CompletedTask;
    }
}
