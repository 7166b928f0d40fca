using Ingest.Core.Events;

namespace Ingest.Core.Sinks;

/// <summary>Keeps nothing; <see cref="SinkStatistics"/> still counts what passed through it.</summary>
internal sealed class NullSink : IEventSink
{
    public SinkKind Kind => SinkKind.Null;

    public ValueTask WriteAsync(List<IngestEvent> events, CancellationToken cancellationToken) => ValueTask.CompletedTask;
}
