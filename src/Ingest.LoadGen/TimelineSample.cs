namespace Ingest.LoadGen;

/// <summary>One second of the measured phase: <see cref="Requests"/> completed in it, of which
/// <see cref="Errors"/> failed (timeout, read, write, parse).</summary>
public sealed record TimelineSample(int Second, long Requests, long Errors);
