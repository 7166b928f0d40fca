using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Running;

/// <summary>
/// A scenario whose services are up: what <see cref="ScenarioRunner.MeasureAsync"/> loads, round after round when the
/// run keeps services up between rounds (<see cref="LabOptions.KeepServices"/>). Disposing it stops them.
/// </summary>
internal sealed class StartedScenario(Scenario scenario, Topology topology, PrometheusServer? prometheus, string payload, string folder, IReadOnlyDictionary<string, string> configuration) : IAsyncDisposable
{
    public Scenario Scenario => scenario;

    public Topology Topology => topology;

    public PrometheusServer? Prometheus => prometheus;

    public string Payload => payload;

    public string Folder => folder;

    public IReadOnlyDictionary<string, string> Configuration => configuration;

    /// <summary>Rounds measured so far.</summary>
    public int Rounds { get; set; }

    /// <summary>The back-end's persisted total at the last loss check: the next round's check counts from here.</summary>
    public long Persisted { get; set; }

    public async ValueTask DisposeAsync()
    {
        if (prometheus is not null)
        {
            await prometheus.DisposeAsync();
        }

        await topology.DisposeAsync();
    }
}
