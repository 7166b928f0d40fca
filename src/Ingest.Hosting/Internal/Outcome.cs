using Ingest.Core.Problems;

namespace Ingest.Hosting.Internal;

/// <summary>How a write request ended: the number of events accepted (front-end) or persisted (back-end), or a problem.</summary>
internal readonly record struct Outcome(int Count, IngestProblem? Problem)
{
    public static implicit operator Outcome(IngestProblem problem) => new(0, problem);
}
