namespace Ingest.Benchmarks.Tests;

/// <summary>The tests that run BenchmarkDotNet in this process, one at a time: its runner is not made to run twice at
/// once in one process (console, process priority, the macro suite's sockets).</summary>
[CollectionDefinition(Name)]
public sealed class BenchmarkDotNetRuns
{
    public const string Name = "BenchmarkDotNet runs";
}
