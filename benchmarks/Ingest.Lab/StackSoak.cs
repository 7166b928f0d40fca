using Ingest.LoadGen;
using Ingest.Lab.Running;

namespace Ingest.Lab;

/// <summary>One stack's soak as written to <c>soak-result.json</c>: its maximum, the rate soaked at, the run, the loss
/// check, the 10-second memory samples, the per-second probe and the verdict.</summary>
internal sealed record StackSoak(
    string Stack,
    string Title,
    double WarmupSeconds,
    double MaximumRps,
    double Rate,
    object Run,
    LatencyFigures Latency,
    LossCheck Loss,
    IReadOnlyList<SoakSample> Samples,
    IReadOnlyList<SoakSecond> Seconds,
    SoakVerdict Verdict);
