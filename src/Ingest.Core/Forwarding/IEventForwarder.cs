using Ingest.Core.Events;
using Ingest.Core.Problems;

namespace Ingest.Core.Forwarding;

/// <summary>Gets events to every back-end. Completes with null once all acknowledged them, or with the
/// problem to answer the caller with (502, 503, 504).</summary>
public interface IEventForwarder
{
    ValueTask<IngestProblem?> ForwardAsync(List<IngestEvent> events, CancellationToken cancellationToken);
}
