namespace Ingest.LoadGen.Internal;

internal enum ConnectionState
{
    /// <summary>No socket (before the first connect, or between a close and the next connect).</summary>
    Closed,

    /// <summary>A non-blocking connect is under way; writability reports its outcome.</summary>
    Connecting,

    /// <summary>Connected: requests flow.</summary>
    Open,

    /// <summary>The last connect failed; the next one is due at <see cref="Connection.StateDeadline"/>.</summary>
    Backoff,

    /// <summary>The run is over: the client's side is shut down and the server's last bytes are read and discarded
    /// until it closes (<c>Worker.Linger</c>).</summary>
    Lingering,
}
