using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Minimal;

/// <summary>A value written with the configured serializer (the built-in JSON results would always use System.Text.Json).</summary>
internal sealed class JsonResult<T>(T value, ResponseWriter writer, int status = StatusCodes.Status200OK) : IResult
    where T : class
{
    public Task ExecuteAsync(HttpContext httpContext) => value is IngestProblem problem
        ? writer.WriteProblemAsync(httpContext.Response, problem)
        : writer.WriteJsonAsync(httpContext.Response, value, status, MediaTypes.Json);
}
