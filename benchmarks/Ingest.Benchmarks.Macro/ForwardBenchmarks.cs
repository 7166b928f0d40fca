using BenchmarkDotNet.Attributes;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Testing;
using Ingest.Transports;

namespace Ingest.Benchmarks.Macro;

/// <summary>
/// The forward over loop-owned connections (<see cref="ClientStrategy.LoopDirect"/>, the front-end's own HTTP/1.1
/// client) against the Static client, with everything else equal: both services on the same transport with the
/// application inline on its loops, minimal API, source-generated System.Text.Json, the classic payload. The
/// difference between the two rows is the forward's own cost in time and bytes; the rest of the round trip (client,
/// parsing, back-end) is the same in both.
/// </summary>
[BenchmarkCategory(Categories.Forward)]
public class ForwardBenchmarks : LoopbackFlow
{
    [Params(TransportKind.LinuxEpoll, TransportKind.IoUring)]
    public TransportKind Transport { get; set; }

    [Params(ClientStrategy.Static, ClientStrategy.LoopDirect)]
    public ClientStrategy Strategy { get; set; }

    [GlobalSetup]
    public Task Setup() => StartAsync(
        new FlowConfiguration(Strategy: Strategy, Transport: Transport.ToString(), ApplicationInline: true),
        "/ingest/event",
        System.Text.Encoding.UTF8.GetBytes(SamplePayloads.Classic));

    [Benchmark(OperationsPerInvoke = Requests)]
    public Task IngestClassic() => BurstAsync();
}
