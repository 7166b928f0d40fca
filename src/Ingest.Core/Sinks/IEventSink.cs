using Ingest.Core.Events;

namespace Ingest.Core.Sinks;

/// <summary>
/// A store for events. <see cref="WriteAsync"/> completes only once the events are persisted as far as
/// this sink persists anything: the back-end acknowledges its caller right after.
/// </summary>
public interface IEventSink
{
    SinkKind Kind { get; }

    ValueTask WriteAsync(List<IngestEvent> events, CancellationToken cancellationToken);
}
