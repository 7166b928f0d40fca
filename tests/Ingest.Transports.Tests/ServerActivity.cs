namespace Ingest.Transports.Tests;

/// <summary>What the test app saw: requests in flight and responses aborted by the client.</summary>
public sealed class ServerActivity
{
    private int _inFlight;
    private int _aborted;

    public int InFlight => Volatile.Read(ref _inFlight);

    public int AbortedResponses => Volatile.Read(ref _aborted);

    public void Started() => Interlocked.Increment(ref _inFlight);

    public void Finished() => Interlocked.Decrement(ref _inFlight);

    public void Aborted() => Interlocked.Increment(ref _aborted);
}
