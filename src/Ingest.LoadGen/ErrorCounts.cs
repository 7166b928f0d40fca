namespace Ingest.LoadGen;

/// <summary>
/// Failures by kind. When a connection fails, every request in flight on it counts once under the
/// failure's kind; the connection is then replaced.
/// </summary>
public sealed record ErrorCounts
{
    /// <summary>Connect attempts refused, failed or timed out (not requests; retried after 10 ms).</summary>
    public required long Connect { get; init; }

    /// <summary>Requests without a complete response within the timeout.</summary>
    public required long Timeout { get; init; }

    /// <summary>Requests lost to a reset or to the server closing the connection mid-response.</summary>
    public required long Read { get; init; }

    /// <summary>Requests that could not be sent (the connection failed while writing).</summary>
    public required long Write { get; init; }

    /// <summary>Requests whose response was not valid HTTP/1.1.</summary>
    public required long Parse { get; init; }

    /// <summary>Responses by status for every status outside 2xx (also in <see cref="LoadResult.StatusCodes"/>).</summary>
    public required IReadOnlyDictionary<int, long> NonSuccessStatusCodes { get; init; }

    /// <summary>Connect + Timeout + Read + Write + Parse (bad statuses are responses, not errors).</summary>
    public long Total => Connect + Timeout + Read + Write + Parse;
}
