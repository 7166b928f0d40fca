using Ingest.Core.Events;

namespace Ingest.Core.Sinks;

/// <summary>
/// The last events the sinks acknowledged, in a fixed ring, for the back-end's status page. Built for the hot path:
/// a request reserves its slots with one interlocked add and stores references (no copy, no lock, no allocation);
/// a reader takes a snapshot. Two requests writing at once may leave their events interleaved in the ring, and a
/// snapshot racing a writer may show a slot one write old: the page shows recent events, not a log.
/// </summary>
public sealed class RecentEvents
{
    private readonly IngestEvent?[] _ring;
    private long _written;

    /// <param name="capacity">How many events are kept; 0 keeps none (and <see cref="Record"/> does nothing).</param>
    public RecentEvents(int capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        _ring = new IngestEvent?[capacity];
    }

    public int Capacity => _ring.Length;

    /// <summary>Keeps the last <see cref="Capacity"/> of <paramref name="events"/> (a batch's earlier ones would be overwritten at once).</summary>
    public void Record(List<IngestEvent> events)
    {
        var ring = _ring;
        if (ring.Length == 0 || events.Count == 0)
        {
            return;
        }

        var skip = Math.Max(0, events.Count - ring.Length);
        var count = events.Count - skip;
        var first = Interlocked.Add(ref _written, count) - count;
        for (var i = 0; i < count; i++)
        {
            Volatile.Write(ref ring[(first + i) % ring.Length], events[skip + i]);
        }
    }

    /// <summary>The events kept, newest first.</summary>
    public IngestEvent[] Snapshot()
    {
        var ring = _ring;
        var written = Interlocked.Read(ref _written);
        var count = (int)Math.Min(written, ring.Length);
        var result = new List<IngestEvent>(count);
        for (var i = 1; i <= count; i++)
        {
            // A slot reserved but not yet written is still empty (or one write old): skipped.
            if (Volatile.Read(ref ring[(written - i) % ring.Length]) is { } e)
            {
                result.Add(e);
            }
        }

        return [.. result];
    }
}
