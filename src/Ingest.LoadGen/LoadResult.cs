namespace Ingest.LoadGen;

/// <summary>
/// What one load run measured: the record written by <c>--json</c> and returned by
/// <see cref="LoadRunner.RunAsync"/>. Stable schema (see README, "JSON result"): members are only ever added,
/// and <see cref="SchemaVersion"/> changes if one changes meaning. Read it with <see cref="LoadResultJson"/>.
/// Everything counts the measured phase only; a request belongs to the phase in which it was due
/// (open loop) or sent (closed loop).
/// </summary>
public sealed record LoadResult
{
    /// <summary>The schema version this build writes.</summary>
    public const int CurrentSchemaVersion = 1;

    /// <summary>Schema version of this record; see <see cref="CurrentSchemaVersion"/>.</summary>
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;

    /// <summary>What was asked for, defaults resolved.</summary>
    public required LoadSettings Settings { get; init; }

    /// <summary>Where it ran.</summary>
    public required RunEnvironment Environment { get; init; }

    /// <summary>When the run (warm-up included) started, UTC.</summary>
    public required DateTimeOffset StartedAt { get; init; }

    /// <summary>Why the measured phase ended.</summary>
    public required LoadStopReason StopReason { get; init; }

    /// <summary>Length of the measured phase in seconds, from its start to the moment the last event loop stopped.</summary>
    public required double ElapsedSeconds { get; init; }

    /// <summary>Requests completed: <see cref="Responses"/> plus requests that failed (timeout, read, write,
    /// parse). Connect failures are not requests. Equals the sum of <see cref="Timeline"/>.</summary>
    public required long Requests { get; init; }

    /// <summary>Complete responses, whatever their status.</summary>
    public required long Responses { get; init; }

    /// <summary>Responses with a 2xx status.</summary>
    public required long SuccessfulResponses { get; init; }

    /// <summary>Responses with any other status (each counted in <see cref="StatusCodes"/>).</summary>
    public required long BadResponses { get; init; }

    /// <summary><see cref="Responses"/> divided by <see cref="ElapsedSeconds"/>.</summary>
    public required double RequestsPerSecond { get; init; }

    /// <summary>Response bytes received (heads and bodies).</summary>
    public required long BytesRead { get; init; }

    /// <summary>Request bytes sent.</summary>
    public required long BytesWritten { get; init; }

    /// <summary>Latency of every complete response, from the time its request was sent (closed loop) or
    /// due (open loop) to the last byte of the response.</summary>
    public required LatencySummary Latency { get; init; }

    /// <summary>Failures by kind, and every non-2xx status separately.</summary>
    public required ErrorCounts Errors { get; init; }

    /// <summary>Responses by status code.</summary>
    public required IReadOnlyDictionary<int, long> StatusCodes { get; init; }

    /// <summary>Connection churn.</summary>
    public required ConnectionCounts Connections { get; init; }

    /// <summary>Open loop only (null in closed loop): how well the schedule was kept.</summary>
    public OpenLoopSummary? OpenLoop { get; init; }

    /// <summary>Requests completed during the warm-up (not counted anywhere else).</summary>
    public required long WarmupRequests { get; init; }

    /// <summary>Warm-up requests answered 2xx: acknowledged, so the loss check counts them. 0 in results written
    /// before the field existed.</summary>
    public long WarmupSuccessfulResponses { get; init; }

    /// <summary>False when an adaptive warm-up reached its limit (or the run stopped) while the rate still rose: the
    /// target may not have been warm. True for a fixed warm-up, and in results written before the field existed.</summary>
    public bool WarmupStable { get; init; } = true;

    /// <summary>Measured requests still waiting for their response when the duration ended (not counted
    /// in <see cref="Requests"/>, as wrk does not count them either).</summary>
    public required long InFlightAtEnd { get; init; }

    /// <summary>Milliseconds from the start of the run (before connecting) to the first complete response;
    /// null when there was none.</summary>
    public double? FirstResponseMilliseconds { get; init; }

    /// <summary>Requests completed in each second of the measured phase, by completion time.</summary>
    public required IReadOnlyList<TimelineSample> Timeline { get; init; }
}
