using Ingest.Core.Events;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Sinks;

/// <summary>The back-end's write path: optional injected faults, then the sinks.</summary>
public sealed class EventPersister(SinkRouter router, IOptions<FaultOptions> faultOptions)
{
    private readonly FaultOptions _faults = faultOptions.Value;
    private long _seen;

    public SinkRouter Router => router;

    public async ValueTask PersistAsync(List<IngestEvent> events, CancellationToken cancellationToken)
    {
        if (_faults.DelayMilliseconds > 0)
        {
            await Task.Delay(_faults.DelayMilliseconds, cancellationToken);
        }

        if (_faults.FailWrites)
        {
            throw new IOException("Injected fault: the store is down (Faults:FailWrites).");
        }

        if (_faults.DropOneIn > 0)
        {
            Drop(events, _faults.DropOneIn);
        }

        await router.WriteAsync(events, cancellationToken);

        if (_faults.ResponseDelayMilliseconds > 0)
        {
            // Persisted already: the answer is late, whatever the caller does meanwhile.
            await Task.Delay(_faults.ResponseDelayMilliseconds, CancellationToken.None);
        }
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
