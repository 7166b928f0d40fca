using Ingest.Lab.Processes;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>Publishes the services and the load generator once for every lab test (the expensive part), into
/// the repository's artifacts folder exactly as a lab run does.</summary>
public sealed class LabFixture : IDisposable
{
    public LabFixture()
    {
        Layout = RepositoryLayout.Find();
        Output = Directory.CreateTempSubdirectory("ingest-lab-tests-").FullName;
        Publisher = new Publisher(Layout, TextWriter.Null);
        Artifacts = new Artifacts(Layout, Publisher, TextWriter.Null, checksOnly: true);
        LoadGenerator = new LoadGenDriver(Artifacts.LoadGeneratorAsync);
    }

    internal RepositoryLayout Layout { get; }

    internal Publisher Publisher { get; }

    internal Artifacts Artifacts { get; }

    internal LoadGenDriver LoadGenerator { get; }

    public string Output { get; }

    /// <summary>Runs scenarios on this fixture's published programs, not pinned, results under <see cref="Output"/>.</summary>
    internal ScenarioRunner Runner(LabOptions options) => new(Artifacts, LoadGenerator, null, options, Pinning.None, Output);

    public void Dispose() => Directory.Delete(Output, recursive: true);
}
