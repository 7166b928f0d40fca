using BenchmarkDotNet.Attributes;
using Ingest.Core.Events;
using Ingest.Core.Forwarding;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;
using Ingest.Hosting;
using Ingest.Testing;

namespace Ingest.Benchmarks.Micro;

/// <summary>
/// The HttpClient strategies as the front-end wires them (its own services, resolved from a real front-end): the
/// cost of getting a client and giving it back, and of one forward of one classic event over loopback to the real
/// back-end, which runs in a process of its own so the allocations counted are the forwarding side's alone. A
/// per-request client opens a connection per forward and leaves it in TIME_WAIT (Linux reuses those on loopback).
/// </summary>
[BenchmarkCategory(Categories.HttpClient)]
public class ClientBenchmarks
{
    private BackEndProcess _backEnd = null!;
    private ServiceHost _frontEnd = null!;
    private IBackEndClientSource _clients = null!;
    private BackEndForwarder _forwarder = null!;
    private List<IngestEvent> _events = [];

    [Params(ClientStrategy.PerRequest, ClientStrategy.Static, ClientStrategy.Factory)]
    public ClientStrategy Strategy { get; set; }

    [GlobalSetup]
    public async Task Setup()
    {
        _backEnd = BackEndProcess.Start([new("Sinks:Default", "Null")]);
        var settings = new FlowConfiguration(Strategy: Strategy).FrontEnd([_backEnd.Address]);
        _frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, settings);
        _clients = ((HttpClientSender)_frontEnd.Get<IBackEndSender>()).Clients;
        _forwarder = _frontEnd.Get<BackEndForwarder>();
        var serializer = _frontEnd.Get<IIngestSerializer>();
        var document = serializer.ReadDocument(System.Text.Encoding.UTF8.GetBytes(Core.Samples.SamplePayloads.Classic));
        EventValidator.TryNormalize(document, EventLocation.WholeBody, DateTime.UtcNow, serializer, out var normalized);
        _events = [normalized!];
        await ForwardAsync();
    }

    [GlobalCleanup]
    public async Task Cleanup()
    {
        await _frontEnd.DisposeAsync();
        _backEnd.Dispose();
    }

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
