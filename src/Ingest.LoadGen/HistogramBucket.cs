namespace Ingest.LoadGen;

/// <summary>One histogram bucket: <see cref="Count"/> values between <see cref="FromUs"/> and
/// <see cref="ToUs"/> microseconds, both included.</summary>
public sealed record HistogramBucket(long FromUs, long ToUs, long Count);
