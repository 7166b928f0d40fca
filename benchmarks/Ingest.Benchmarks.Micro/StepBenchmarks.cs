using BenchmarkDotNet.Attributes;
using Ingest.Core.Buffers;
using Ingest.Core.Events;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;

namespace Ingest.Benchmarks.Micro;

/// <summary>
/// The classic payload's path in its steps, per serializer, so each step's time and allocations can be read apart:
/// the outer document, the single-quoted inner one, validation with normalisation (which reads the inner document
/// again, as the front-end does), the forward body written, and the back-end reading it.
/// </summary>
[BenchmarkCategory(Categories.Steps)]
public class StepBenchmarks
{
    private readonly PooledBufferWriter _output = new(4 * 1024);
    private IIngestSerializer _serializer = null!;
    private byte[] _body = [];
    private string _inner = "";
    private EventDocument _document = null!;
    private List<IngestEvent> _events = [];
    private byte[] _forwardBody = [];
    private DateTime _receivedAt;

    [ParamsAllValues]
    public SerializerKind Serializer { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _serializer = IngestSerializers.Create(Serializer);
        _body = System.Text.Encoding.UTF8.GetBytes(SamplePayloads.Classic);
        _document = _serializer.ReadDocument(_body) ?? throw new InvalidOperationException("The classic payload read as null.");
        _inner = _document.Data ?? throw new InvalidOperationException("The classic payload has no data member.");
        _receivedAt = DateTime.UtcNow;
        _events = [Normalize()];
        _output.Reset();
        _serializer.WriteEvents(_output, _events);
        _forwardBody = _output.WrittenSpan.ToArray();
    }

    [GlobalCleanup]
    public void Cleanup() => _output.Dispose();

    [Benchmark]
    public EventDocument? ReadOuterDocument() => _serializer.ReadDocument(_body);

    [Benchmark]
    public EventDocument? ReadInnerDocument() => _serializer.ReadInnerDocument(_inner);

    [Benchmark]
    public IngestEvent Normalize() => Normalization.Normalize(_document, _receivedAt, _serializer);

    [Benchmark]
    public int WriteForwardBody()
    {
        _output.Reset();
        _serializer.WriteEvents(_output, _events);
        return _output.WrittenCount;
    }

    [Benchmark]
    public List<IngestEvent?> ReadForwardBody() => _serializer.ReadEvents(_forwardBody);
}
