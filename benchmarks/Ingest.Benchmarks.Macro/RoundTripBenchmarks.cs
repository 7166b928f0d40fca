using BenchmarkDotNet.Attributes;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;
using Ingest.Testing;
using Ingest.Transports;

namespace Ingest.Benchmarks.Macro;

/// <summary>
/// One complete ingest round trip — client, front-end (read, validate, forward), back-end (check, store in its memory
/// ring), and the answers back — with the classic payload, per Kestrel transport (both services on it), client
/// strategy and serializer. The API style is fixed at Minimal here; <see cref="ApiStyleBenchmarks"/> turns it.
/// </summary>
[BenchmarkCategory(Categories.RoundTrip)]
public class RoundTripBenchmarks : LoopbackFlow
{
    /// <summary>Every transport this build has (RedHatLinux only in a build given its package).</summary>
    [ParamsSource(nameof(Transports))]
    public TransportKind Transport { get; set; }

    public static IEnumerable<TransportKind> Transports => TransportKinds.InThisBuild;

    [Params(ClientStrategy.PerRequest, ClientStrategy.Static, ClientStrategy.Factory)]
    public ClientStrategy Strategy { get; set; }

    [ParamsAllValues]
    public SerializerKind Serializer { get; set; }

    [GlobalSetup]
    public Task Setup() => StartAsync(new FlowConfiguration(Serializer, Strategy, Transport: Transport.ToString()), "/ingest/event", System.Text.Encoding.UTF8.GetBytes(SamplePayloads.Classic));

    [Benchmark(OperationsPerInvoke = Requests)]
    public Task IngestClassic() => BurstAsync();
}
