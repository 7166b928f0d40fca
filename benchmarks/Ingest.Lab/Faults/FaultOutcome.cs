using Ingest.LoadGen;

namespace Ingest.Lab.Faults;

/// <summary>What one fault did to the steady load: the table's row (<see cref="FaultsCommand"/>) and the test's verdict.
/// Times are seconds; <see cref="Problems"/> is empty when the fault was survived as promised.</summary>
internal sealed record FaultOutcome
{
    public required string Fault { get; init; }

    public required string What { get; init; }

    public required double Seconds { get; init; }

    /// <summary>Requests the load completed: answered, or failed at the load's side.</summary>
    public required long Requests { get; init; }

    public required long Acknowledged { get; init; }

    /// <summary>Answers other than 2xx by status ("status 503") and the load's own failures by kind ("timeout").</summary>
    public required IReadOnlyDictionary<string, long> Errors { get; init; }

    /// <summary>From the fault's end to the first second from which every answer was a 2xx; null when the run ended first.</summary>
    public required double? RecoverySeconds { get; init; }

    /// <summary>The time the service is given to be back to normal.</summary>
    public required double RecoveryBound { get; init; }

    /// <summary>The lab's loss check over this fault's events (distinct job ids persisted against the 2xx answers).</summary>
    public required LossCheck Loss { get; init; }

    /// <summary>Events persisted more than once: lines of the store beyond one per job id.</summary>
    public required long Duplicated { get; init; }

    /// <summary>When the circuit first refused a forward, from the fault's start; null when it stayed closed.</summary>
    public required double? CircuitOpened { get; init; }

    /// <summary>When it last refused one, from the fault's end (negative: before it ended).</summary>
    public required double? CircuitLastRefusal { get; init; }

    public required long FrontEndPeakResidentBytes { get; init; }

    /// <summary>Packets the wire carried during the run, both ways: that the link was the wire.</summary>
    public required long WirePackets { get; init; }

    public required IReadOnlyList<string> Problems { get; init; }

    public bool Passed => Problems.Count == 0;
}
