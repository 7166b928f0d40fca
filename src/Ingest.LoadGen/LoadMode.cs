namespace Ingest.LoadGen;

/// <summary>How requests are paced.</summary>
public enum LoadMode
{
    /// <summary>Each connection sends its next request as soon as a response frees a slot (like wrk):
    /// the server's speed sets the rate, and a stalled server is only seen by the few requests in flight.</summary>
    ClosedLoop,

    /// <summary>Requests are due at a fixed rate whatever the server does; latency counts from the time a
    /// request was due, so a stall shows in every request that should have been sent during it.</summary>
    OpenLoop,
}
