namespace Ingest.LoadGen;

/// <summary>The options a run used, defaults resolved, so a result never depends on knowing the defaults.</summary>
public sealed record LoadSettings
{
    public required string Url { get; init; }

    public required string Method { get; init; }

    public required LoadMode Mode { get; init; }

    /// <summary>Requests per second (open loop); null in closed loop.</summary>
    public double? Rate { get; init; }

    public required int Connections { get; init; }

    public required int Pipeline { get; init; }

    /// <summary>Event-loop threads actually used.</summary>
    public required int Threads { get; init; }

    /// <summary>How long the warm-up lasted: <see cref="LoadOptions.Warmup"/>, or where an adaptive one ended.</summary>
    public required double WarmupSeconds { get; init; }

    /// <summary>The adaptive warm-up's limit (<see cref="LoadOptions.WarmupLimit"/>); null for a fixed warm-up.</summary>
    public double? WarmupLimitSeconds { get; init; }

    public required double DurationSeconds { get; init; }

    public required long MaxRequests { get; init; }

    public required double TimeoutSeconds { get; init; }

    /// <summary>Size in bytes of each request body, in round-robin order; empty without bodies.</summary>
    public required IReadOnlyList<int> BodySizes { get; init; }

    /// <summary>Extra request headers as given.</summary>
    public required IReadOnlyList<string> Headers { get; init; }
}
