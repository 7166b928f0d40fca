using Ingest.Core.Events;

namespace Ingest.Core.Sinks;

/// <summary>Keeps the most recent events in a fixed-size ring, for inspection and tests.</summary>
internal sealed class MemorySink(int capacity) : IEventSink
{
    private readonly IngestEvent[] _ring = new IngestEvent[capacity];
    private readonly Lock _lock = new();
    private long _written;

    public SinkKind Kind => SinkKind.Memory;

    public ValueTask WriteAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        lock (_lock)
        {
            foreach (var e in events)
            {
                _ring[_written++ % _ring.Length] = e;
            }
        }

        return ValueTask.CompletedTask;
    }

    /// <summary>The most recent events, oldest first.</summary>
    public IngestEvent[] Recent()
    {
        lock (_lock)
        {
            var count = (int)Math.Min(_written, _ring.Length);
            var result = new IngestEvent[count];
            for (var i = 0; i < count; i++)
            {
                result[i] = _ring[(_written - count + i) % _ring.Length];
            }

            return result;
        }
    }
}
