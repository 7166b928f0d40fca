using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Minimal;

/// <summary>The answer to a write request: the acknowledgement, or the problem.</summary>
internal sealed class OutcomeResult<TAck>(Outcome outcome, Func<int, TAck> ack, ResponseWriter writer) : IResult
    where TAck : class
{
    public Task ExecuteAsync(HttpContext httpContext) => writer.WriteOutcomeAsync(httpContext.Response, outcome, ack);
}
