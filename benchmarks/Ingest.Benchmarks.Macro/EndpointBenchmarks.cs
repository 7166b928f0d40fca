using BenchmarkDotNet.Attributes;
using Ingest.Hosting;
using Ingest.Testing;

namespace Ingest.Benchmarks.Macro;

/// <summary>The classic reference endpoints of the front-end, per API style: what routing, model binding and the
/// response writers cost with no forward behind them.</summary>
[BenchmarkCategory(Categories.Endpoints)]
public class EndpointBenchmarks : LoopbackFlow
{
    public enum Endpoint
    {
        /// <summary><c>GET /plaintext</c>: a fixed text body.</summary>
        Plaintext,

        /// <summary><c>GET /json</c>: a small object serialized per request.</summary>
        Json,

        /// <summary><c>GET /api/values/5</c>: a route with a parameter.</summary>
        Values,
    }

    [ParamsAllValues]
    public ApiStyle Style { get; set; }

    [ParamsAllValues]
    public Endpoint Path { get; set; }

    [GlobalSetup]
    public Task Setup() => StartAsync(new FlowConfiguration(Style: Style), Path switch
    {
        Endpoint.Plaintext => "/plaintext",
        Endpoint.Json => "/json",
        _ => "/api/values/5",
    }, body: null);

    [Benchmark(OperationsPerInvoke = Requests)]
    public Task Get() => BurstAsync();
}
