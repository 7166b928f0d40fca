using BenchmarkDotNet.Attributes;
using Ingest.Core.Events;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;

namespace Ingest.Benchmarks.Micro;

/// <summary>What the front-end does to an event once it is read: required members, lengths, the timestamp parsed
/// (RFC 3339), the type and level normalised. Typed events only: the classic payload's validation includes reading
/// its inner document, measured in <see cref="StepBenchmarks.Normalize"/>.</summary>
[BenchmarkCategory(Categories.Validation)]
public class ValidationBenchmarks
{
    private readonly IIngestSerializer _serializer = IngestSerializers.Create(SerializerKind.SystemTextJsonSourceGen);
    private EventDocument _document = null!;
    private IngestEvent _normalized = null!;
    private DateTime _receivedAt;

    public enum EventKind
    {
        Job,
        Metric,
        Log,
    }

    [ParamsAllValues]
    public EventKind Kind { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var json = Kind switch
        {
            EventKind.Job => SamplePayloads.Job(1),
            EventKind.Metric => SamplePayloads.Metric(1),
            _ => SamplePayloads.Log(1),
        };
        _document = _serializer.ReadDocument(System.Text.Encoding.UTF8.GetBytes(json))!;
        _receivedAt = DateTime.UtcNow;
        _normalized = Normalize();
    }

    [Benchmark]
    public IngestEvent Normalize() => Normalization.Normalize(_document, _receivedAt, _serializer);

    /// <summary>The back-end's re-check of a forwarded event (it trusts no caller).</summary>
    [Benchmark]
    public bool CheckOnTheBackEnd() => EventValidator.CheckNormalized(_normalized, EventLocation.WholeBody) is null;
}
