namespace Ingest.LoadGen;

/// <summary>One second of the measured phase: <see cref="Requests"/> completed in it, of which
/// <see cref="Errors"/> failed (timeout, read, write, parse) and <see cref="BadResponses"/> were answered with a
/// status other than 2xx, and the slowest response completed in it (<see cref="MaxMs"/>, 0 when none), so a long
/// tail can be placed in time (the lab's soak lines it up with GC pauses, thread counts and the machine's load) and
/// so can the end of an outage (the lab's <c>faults</c> command: the first second from which every answer was a
/// 2xx). <see cref="BadResponses"/> is 0 in results written before it was counted.</summary>
public sealed record TimelineSample(int Second, long Requests, long Errors, double MaxMs = 0, long BadResponses = 0);
