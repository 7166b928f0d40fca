using Ingest.Core.Events;

namespace Ingest.Storage.Internal;

/// <summary>One request's events waiting for a store writer; completes when the batch holding them was
/// acknowledged by the store, or faults with the reason it was not.</summary>
internal sealed class PendingWrite(List<IngestEvent> events) : TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)
{
    public List<IngestEvent> Events { get; } = events;
}
