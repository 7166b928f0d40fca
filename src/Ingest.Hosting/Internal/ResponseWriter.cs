using Ingest.Core.Buffers;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Internal;

/// <summary>
/// Writes every response body of both services with the configured serializer, with an exact Content-Length.
/// The API styles differ in how they reach this class, not in what goes on the wire.
/// </summary>
public sealed class ResponseWriter(IIngestSerializer serializer)
{
    public IIngestSerializer Serializer => serializer;

    public Task WriteJsonAsync<T>(HttpResponse response, T value, int status = StatusCodes.Status200OK, string contentType = MediaTypes.Json)
        where T : class
    {
        response.StatusCode = status;
        response.ContentType = contentType;
        return WriteBodyAsync(response, value);
    }

    /// <summary>Writes only the body (and Content-Length): for MVC's output formatter, which sets status and type itself.</summary>
    public Task WriteBodyAsync<T>(HttpResponse response, T value)
        where T : class
    {
        // Serialized into a pooled buffer first so the response carries Content-Length, not chunked framing.
        var buffer = new PooledBufferWriter();
        try
        {
            serializer.Write(buffer, value);
        }
        catch
        {
            buffer.Dispose();
            throw;
        }

        return WriteAndReturnAsync(response, buffer);
    }

    public Task WriteProblemAsync(HttpResponse response, IngestProblem problem)
    {
        ApplyProblemHeaders(response, problem);
        return WriteJsonAsync(response, problem, problem.Status, IngestProblem.MediaType);
    }

    /// <summary>The headers a problem answer needs besides its body; every style calls this.</summary>
    public static void ApplyProblemHeaders(HttpResponse response, IngestProblem problem)
    {
        if (problem.RetryAfterSeconds() is { } seconds)
        {
            response.Headers.RetryAfter = seconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        if (problem.Allow() is { } allow)
        {
            response.Headers.Allow = allow;
        }

        if (problem.Status == StatusCodes.Status413PayloadTooLarge)
        {
            // The rest of the body was never read: the connection cannot carry another request.
            response.Headers.Connection = "close";
        }
    }

    internal Task WriteOutcomeAsync<TAck>(HttpResponse response, Outcome outcome, Func<int, TAck> ack)
        where TAck : class =>
        outcome.Problem is { } problem ? WriteProblemAsync(response, problem) : WriteJsonAsync(response, ack(outcome.Count));

    public static Task WriteTextAsync(HttpResponse response, ReadOnlyMemory<byte> utf8Text)
    {
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = MediaTypes.PlainText;
        response.ContentLength = utf8Text.Length;
        return response.BodyWriter.WriteAsync(utf8Text).AsTask();
    }

    private static async Task WriteAndReturnAsync(HttpResponse response, PooledBufferWriter buffer)
    {
        try
        {
            response.ContentLength = buffer.WrittenCount;
            await response.BodyWriter.WriteAsync(buffer.WrittenMemory);
        }
        finally
        {
            buffer.Dispose();
        }
    }
}
