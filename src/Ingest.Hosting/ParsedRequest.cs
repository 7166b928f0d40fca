using Ingest.Core.Events;
using Ingest.Core.Problems;

namespace Ingest.Hosting;

/// <summary>A request body read and validated: its events, or the problem that rejects it. A class because
/// MVC binds it as the action's model.</summary>
public sealed class ParsedRequest
{
    private ParsedRequest(List<IngestEvent> events, IngestProblem? problem)
    {
        Events = events;
        Problem = problem;
    }

    public List<IngestEvent> Events { get; }

    public IngestProblem? Problem { get; }

    internal static ParsedRequest Accepted(List<IngestEvent> events) => new(events, null);

    internal static ParsedRequest Rejected(IngestProblem problem) => new([], problem);
}
