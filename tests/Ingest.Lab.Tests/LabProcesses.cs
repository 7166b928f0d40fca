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
}
