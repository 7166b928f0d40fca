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

    /// <summary>
    /// The trait of the tests whose time goes mostly into Native AOT and trimmed builds (<c>Builds=Native</c>): CI runs
    /// them in a test process of their own, beside the rest of this suite (tests/test.sh), each runtime's builds in a
    /// tree of their own (Publisher).
    /// </summary>
    public const string Builds = "Builds";

    /// <summary>The value of <see cref="Builds"/> for those tests.</summary>
    public const string Native = "Native";
}
