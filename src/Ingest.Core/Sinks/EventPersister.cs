using Ingest.Core.Events;

namespace Ingest.Core.Sinks;

/// <summary>The back-end's write path: optional injected faults, then the sinks.</summary>
public sealed class EventPersister(SinkRouter router, FaultOptions faults)
{
    private long _seen;

    public SinkRouter Router => router;

    public async ValueTask PersistAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        if (faults.DelayMilliseconds > 0)
        {
            await Task.Delay(faults.DelayMilliseconds, cancellationToken);
        }

        if (faults.DropOneIn > 0)
        {
            Drop(events, faults.DropOneIn);
        }

        await router.WriteAsync(events, cancellationToken);
    }

    // Removes the events whose running number is a multiple of dropOneIn, as a buggy store would lose them.
    private void Drop(List<IngestEvent> events, int dropOneIn)
    {
        var first = Interlocked.Add(ref _seen, events.Count) - events.Count;
        for (var i = events.Count - 1; i >= 0; i--)
        {
            if ((first + i + 1) % dropOneIn == 0)
            {
                events.RemoveAt(i);
            }
        }
    }
}
