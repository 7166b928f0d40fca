namespace Ingest.Fuzz;

/// <summary>
/// One fuzz target: a parser that faces the network, called the way a service calls it, and the properties its
/// answer must have. <see cref="Run"/> throws only for a bug — an exception escaping the parser (where the service
/// would answer 500) or a broken property (<see cref="FuzzPropertyException"/>); afl-fuzz records either as a crash.
/// </summary>
internal interface IFuzzTarget
{
    /// <summary>The name on the command line, in tests/fuzz/run.sh and of the seed folder (Seeds/&lt;Name&gt;).</summary>
    string Name { get; }

    void Run(ReadOnlySpan<byte> input);
}
