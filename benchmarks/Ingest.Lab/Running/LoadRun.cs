namespace Ingest.Lab.Running;

/// <summary>
/// One measured phase of load as the lab keeps it, whatever drove it (our load generator or wrk): the
/// figures the report shows and the counts the loss check needs.
/// </summary>
internal sealed record LoadRun
{
    /// <summary>"loadgen" or "wrk".</summary>
    public required string Driver { get; init; }

    public required double Seconds { get; init; }

    /// <summary>Complete responses per second.</summary>
    public required double RequestsPerSecond { get; init; }

    /// <summary>Complete responses, any status.</summary>
    public required long Responses { get; init; }

    /// <summary>Responses with a 2xx status: what the client saw acknowledged.</summary>
    public required long Successful { get; init; }

    /// <summary>Requests whose outcome the client cannot know: in flight when the phase ended, timed out, or
    /// cut by a reset. The server may or may not have processed them.</summary>
    public required long Unknown { get; init; }

    public required LatencyFigures Latency { get; init; }

    /// <summary>Failures by kind ("connect", "timeout", "read", "write", "parse") and non-2xx statuses ("status 503").</summary>
    public required IReadOnlyDictionary<string, long> Errors { get; init; }

    /// <summary>Responses completed in each second of the phase.</summary>
    public required IReadOnlyList<long> Timeline { get; init; }

    /// <summary>The slowest response completed in each second of the phase, in ms (our load generator only; empty for wrk).</summary>
    public IReadOnlyList<double> TimelineMaxMs { get; init; } = [];

    /// <summary>CPU and memory of every process during the phase, by process name.</summary>
    public IReadOnlyDictionary<string, ProcessUsage> Processes { get; init; } = new Dictionary<string, ProcessUsage>();

    /// <summary>The driver's own result file, relative to the run folder.</summary>
    public string? RawResult { get; init; }

    public long ErrorCount => Errors.Values.Sum();
}
