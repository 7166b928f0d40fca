using Ingest.Core.Problems;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Mvc;

namespace Ingest.Hosting.Mvc;

/// <summary>What the Ingest controllers share: answering an outcome or a problem the MVC way (object results
/// negotiated through <see cref="IngestOutputFormatter"/>).</summary>
public abstract class IngestControllerBase : ControllerBase
{
    private protected IActionResult Answer<TAck>(Outcome outcome, Func<int, TAck> ack)
        where TAck : class =>
        outcome.Problem is { } problem ? Problem(problem) : Ok(ack(outcome.Count));

    private protected IActionResult Problem(IngestProblem problem)
    {
        ResponseWriter.ApplyProblemHeaders(Response, problem);
        return new ObjectResult(problem) { StatusCode = problem.Status, ContentTypes = { IngestProblem.MediaType } };
    }
}
