namespace Ingest.Fuzz;

/// <summary>
/// One fuzz target: a parser that faces the network, called the way a service calls it, and the properties its
/// answer must have. <see cref="Run"/> throws only for a bug — an exception escaping the parser (where the service
/// would answer 500) or a broken property (<see cref="FuzzPropertyException"/>); afl-fuzz records either as a crash.
/// </summary>
/// <remarks>Every target reaches the parser even for an empty input: SharpFuzz's fork server reads its first input
/// before afl-fuzz has necessarily written it, and afl-fuzz aborts a run ("No instrumentation detected") whose first
/// execution left the coverage map empty.</remarks>
internal interface IFuzzTarget
{
    /// <summary>The name on the command line, in tests/fuzz/run.sh and of the seed folder (Seeds/&lt;Name&gt;).</summary>
    string Name { get; }

    void Run(ReadOnlySpan<byte> input);
}
