namespace Ingest.Lab.Results;

/// <summary>
/// The comparison after every scenario: events the back-end persisted against events in requests the load
/// generator saw acknowledged. Requests whose outcome the client could not know (in flight at the end,
/// timed out, reset) may or may not have been persisted; they widen the allowed range and are reported.
/// </summary>
internal sealed record LossCheck(long Acknowledged, long Unknown, long Persisted)
{
    /// <summary>Every acknowledged event is persisted, and nothing beyond what may have arrived unacknowledged.</summary>
    public bool Passed => Persisted >= Acknowledged && Persisted <= Acknowledged + Unknown;

    public string Describe() => Passed
        ? $"{Persisted} persisted for {Acknowledged} acknowledged{(Unknown > 0 ? $" (+ up to {Unknown} of unknown outcome)" : "")}: nothing lost"
        : Persisted < Acknowledged
            ? $"LOST {Acknowledged - Persisted} events: {Acknowledged} acknowledged, only {Persisted} persisted"
            : $"{Persisted - Acknowledged - Unknown} events persisted that no request accounts for: {Persisted} persisted, {Acknowledged} acknowledged, {Unknown} unknown";
}
