namespace Ingest.LoadGen.Internal;

/// <summary>What one worker counted in the measured phase (plus the warm-up count). Written by its worker
/// thread only and read after the threads have ended, so plain fields suffice.</summary>
internal sealed class WorkerStatistics
{
    public WorkerStatistics(int seconds)
    {
        RequestsPerSecond = new long[seconds];
        ErrorsPerSecond = new long[seconds];
        BadResponsesPerSecond = new long[seconds];
        MaxLatencyPerSecond = new long[seconds];
    }

    /// <summary>Response latency in microseconds.</summary>
    public LatencyHistogram Latency { get; } = new();

    /// <summary>Open loop: how late requests were sent after their due time, in microseconds.</summary>
    public LatencyHistogram SendDelay { get; } = new();

    /// <summary>Responses by status code (three digits, so 1,000 slots).</summary>
    public long[] StatusCodes { get; } = new long[1000];

    public long[] RequestsPerSecond { get; }

    public long[] ErrorsPerSecond { get; }

    /// <summary>Responses other than 2xx completed in each second.</summary>
    public long[] BadResponsesPerSecond { get; }

    /// <summary>The slowest response completed in each second, in microseconds: where in the run a tail came from.</summary>
    public long[] MaxLatencyPerSecond { get; }

    public long Responses;
    public long ConnectErrors;
    public long Timeouts;
    public long ReadErrors;
    public long WriteErrors;
    public long ParseErrors;
    public long BytesRead;
    public long BytesWritten;
    public long Opened;
    public long Reconnects;
    public long ClosedByServer;
    public long WarmupRequests;
    public long WarmupSuccessful;
    public long InFlightAtEnd;
    public long Due;
    public long Unsent;

    /// <summary>Stopwatch ticks from the run's start to this worker's first response; long.MaxValue if none.</summary>
    public long FirstResponse = long.MaxValue;

    /// <summary>Stopwatch timestamp at which the worker's loop ended.</summary>
    public long StoppedAt;

    public LoadStopReason StopReason;
}
