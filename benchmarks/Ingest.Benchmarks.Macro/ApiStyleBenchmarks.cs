using BenchmarkDotNet.Attributes;
using Ingest.Core.Samples;
using Ingest.Hosting;
using Ingest.Testing;

namespace Ingest.Benchmarks.Macro;

/// <summary>The ingest round trip of <see cref="RoundTripBenchmarks"/> per API style (both services), over Sockets with
/// the static client and source-generated System.Text.Json.</summary>
[BenchmarkCategory(Categories.ApiStyles)]
public class ApiStyleBenchmarks : LoopbackFlow
{
    [ParamsAllValues]
    public ApiStyle Style { get; set; }

    [GlobalSetup]
    public Task Setup() => StartAsync(new FlowConfiguration(Style: Style), "/ingest/event", System.Text.Encoding.UTF8.GetBytes(SamplePayloads.Classic));

    [Benchmark(OperationsPerInvoke = Requests)]
    public Task IngestClassic() => BurstAsync();
}
