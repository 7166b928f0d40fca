namespace Ingest.LoadGen;

/// <summary>One second of the measured phase: <see cref="Requests"/> completed in it, of which
/// <see cref="Errors"/> failed (timeout, read, write, parse), and the slowest response completed in it
/// (<see cref="MaxMs"/>, 0 when none), so a long tail can be placed in time (the lab's soak lines it up
/// with GC pauses, thread counts and the machine's load).</summary>
public sealed record TimelineSample(int Second, long Requests, long Errors, double MaxMs = 0);
