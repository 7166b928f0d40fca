using BenchmarkDotNet.Attributes;
using Ingest.Core.Events;
using Ingest.Core.Forwarding;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;
using Ingest.Testing;

namespace Ingest.Benchmarks.Micro;

/// <summary>
/// The HttpClient strategies as the front-end wires them (its own services, resolved from a real front-end): the
/// cost of getting a client and giving it back, and of one forward of one classic event over loopback to a real
/// back-end on Kestrel. The back-end runs in this process, so the forward's allocations include its share
/// (reading, checking and storing the event in its memory ring); the difference between strategies is the client's.
/// A per-request client opens a connection per forward and leaves it in TIME_WAIT (Linux reuses those on loopback).
/// </summary>
[BenchmarkCategory(Categories.HttpClient)]
public class ClientBenchmarks
{
    private Flow _flow = null!;
    private IBackEndClientSource _clients = null!;
    private BackEndForwarder _forwarder = null!;
    private List<IngestEvent> _events = [];

    [Params(ClientStrategy.PerRequest, ClientStrategy.Static, ClientStrategy.Factory)]
    public ClientStrategy Strategy { get; set; }

    // Synchronous on purpose: BenchmarkDotNet 0.14's in-process toolchain (the CI dry run) does not wait for an
    // asynchronous [GlobalSetup] before measuring.
    [GlobalSetup]
    public void Setup()
    {
        _flow = Flow.StartAsync(new FlowConfiguration(Strategy: Strategy)).GetAwaiter().GetResult();
        _clients = _flow.FrontEnd.Get<IBackEndClientSource>();
        _forwarder = _flow.FrontEnd.Get<BackEndForwarder>();
        var serializer = _flow.FrontEnd.Get<IIngestSerializer>();
        var document = serializer.ReadDocument(System.Text.Encoding.UTF8.GetBytes(Core.Samples.SamplePayloads.Classic));
        EventValidator.TryNormalize(document, EventLocation.WholeBody, DateTime.UtcNow, serializer, out var normalized);
        _events = [normalized!];
        ForwardAsync().GetAwaiter().GetResult();
    }

    [GlobalCleanup]
    public void Cleanup() => _flow.DisposeAsync().AsTask().GetAwaiter().GetResult();

    /// <summary>Getting a client for a forward and giving it back: a new client and handler (and their disposal), a
    /// static field, or IHttpClientFactory's typed client over its pooled handler.</summary>
    [Benchmark]
    public HttpClient AcquireRelease()
    {
        var client = _clients.Acquire();
        _clients.Release(client);
        return client;
    }

    /// <summary>One forward of one event, answered by the back-end.</summary>
    [Benchmark]
    public async Task ForwardAsync()
    {
        if (await _forwarder.ForwardAsync(_events, CancellationToken.None) is { } problem)
        {
            throw new InvalidOperationException($"The forward failed: {problem.Detail}");
        }
    }
}
