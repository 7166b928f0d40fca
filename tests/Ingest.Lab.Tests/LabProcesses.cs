namespace Ingest.Lab.Tests;

/// <summary>
/// The tests that run lab scenarios on real processes: one after another, as the lab itself runs them (two at once
/// on 2 cores would measure each other, and would publish into the same artifacts folder at the same time), and
/// sharing one publish of the services.
/// </summary>
[CollectionDefinition(Name)]
public sealed class LabProcesses : ICollectionFixture<LabFixture>
{
    public const string Name = "Lab scenarios on real processes";

    /// <summary>The trait of the tests that compile the Native AOT and trimmed builds (<c>Builds=Native</c>): most of this
    /// suite's time, so CI runs them as one job and the rest of the suite as another, each lane taking the next job when
    /// it is free (tests/test.sh).</summary>
    public const string Builds = "Builds";

    /// <summary>The value of <see cref="Builds"/> for those tests.</summary>
    public const string Native = "Native";
}
