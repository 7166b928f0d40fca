using BenchmarkDotNet.Attributes;
using Ingest.Core.Buffers;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Serialization;

namespace Ingest.Benchmarks.Micro;

/// <summary>
/// The front-end's work on a request body, end to end, through the production code: read (and split a batch), parse
/// the classic payload's single-quoted inner document, validate and normalise each event, write the forward body.
/// One operation is one request body, whatever the number of events in it.
/// </summary>
[BenchmarkCategory(Categories.Serialization)]
public class SerializationBenchmarks
{
    private readonly List<IngestEvent> _events = new(128);
    private readonly PooledBufferWriter _forwardBody = new(64 * 1024);
    private IngestRequestReader _reader = null!;
    private byte[] _body = [];
    private PayloadFormat _format;

    [ParamsAllValues]
    public SerializerKind Serializer { get; set; }

    [ParamsAllValues]
    public Payload Payload { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _reader = new IngestRequestReader(IngestSerializers.Create(Serializer), TimeProvider.System, maxBatchEvents: 1_000);
        (_body, _format) = Payloads.Get(Payload);
        // A benchmark of the error path would measure something else: make sure every payload is accepted.
        ReadValidateWrite();
    }

    [GlobalCleanup]
    public void Cleanup() => _forwardBody.Dispose();

    [Benchmark]
    public int ReadValidateWrite()
    {
        _events.Clear();
        if (_reader.Read(_body, _format, _events) is { } problem)
        {
            throw new InvalidOperationException($"{Payload} was refused: {problem.Detail}");
        }

        _forwardBody.Reset();
        _reader.Serializer.WriteEvents(_forwardBody, _events);
        return _forwardBody.WrittenCount;
    }
}
