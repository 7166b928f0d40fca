namespace Ingest.LoadGen;

/// <summary>Why the measured phase ended.</summary>
public enum LoadStopReason
{
    /// <summary>The configured duration was over; requests still in flight were not counted.</summary>
    Duration,

    /// <summary>The configured number of requests was sent and every one was answered or failed.</summary>
    Requests,

    /// <summary>The caller cancelled (Ctrl+C on the command line).</summary>
    Cancelled,
}
