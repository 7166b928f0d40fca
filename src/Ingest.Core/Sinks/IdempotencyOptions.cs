namespace Ingest.Core.Sinks;

/// <summary>How long and how many forwards the back-end remembers, to persist a retried forward once.
/// Bound from the <c>Idempotency</c> section of the back-end.</summary>
public sealed class IdempotencyOptions
{
    public const string SectionName = "Idempotency";

    /// <summary>The most keys a window sized from memory holds.</summary>
    public const int MaxSizedCapacity = 200_000;

    /// <summary>Keys remembered at most: memory stays bounded whatever the rate. Defaults to null: sized from the memory
    /// the GC may use (<see cref="WindowBudget"/>), at most 200,000.</summary>
    public int? Capacity { get; set; }

    /// <summary>How long a key is remembered; longer than any front-end's forward timeout. Defaults to 300 s.</summary>
    public int WindowSeconds { get; set; } = 300;
}
