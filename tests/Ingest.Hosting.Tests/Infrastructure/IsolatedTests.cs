namespace Ingest.Hosting.Tests.Infrastructure;

/// <summary>
/// Tests that must not share the process with others: the blocking client strategy starves the thread pool
/// of the whole test process on purpose, which would stall every test running beside it. xunit runs this
/// collection on its own, after the parallel ones.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class IsolatedTests
{
    public const string Name = "Serial: starves the thread pool";
}
