using System.Text;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;

namespace Ingest.Core.Tests;

public sealed class IngestRequestReaderTests
{
    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void ReadsTheClassicPayloadAsAJob(SerializerKind kind)
    {
        var e = ReadOne(kind, SamplePayloads.Classic);

        Assert.Equal(EventType.Job, e.Type);
        Assert.Equal("classic", e.Source);
        Assert.Equal("c4bb6d130003", e.JobId);
        Assert.Equal("ab7b85dcac72", e.ContainerId);
        Assert.Equal("Success: process exited with code 0.", e.Status);
        Assert.Equal(Serializers.ReceivedAt, e.Timestamp);
        Assert.Equal(Serializers.ReceivedAt, e.ReceivedAt);
        Assert.Equal(DateTimeKind.Utc, e.ReceivedAt.Kind);
    }

    /// <summary>Regression (found by fuzzing the inner document): Newtonsoft read "$type" as type metadata and threw a
    /// NullReferenceException from inside itself on <c>{"$type":{}}</c> — a 500 for bad JSON. "$type", "$id" and
    /// "$ref" are unknown members like any other, in the outer document and in the inner one.</summary>
    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void MetadataLikeMembersAreOrdinaryUnknownMembers(SerializerKind kind)
    {
        var typed = ReadOne(kind, SamplePayloads.Job(1).Replace("{", """{"$type":{},"$id":"1","$ref":{"":1},""", StringComparison.Ordinal));
        var classic = ReadOne(kind, """{"data": "{'$type':{},'$ref':{'':1},'job_id':'j','status':'s'}"}""");

        Assert.Equal("job-1", typed.JobId);
        Assert.Equal("j", classic.JobId);
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void KeepsQuotesAndEscapesInsideSingleQuotedValues(SerializerKind kind)
    {
        // Inner document: {'job_id':'it\'s','status':'say "hi" \\ then\nleave caf\u00e9 ☕'}
        const string body = """{"data": "{'job_id':'it\\'s','status':'say \"hi\" \\\\ then\\nleave caf\\u00e9 ☕'}"}""";

        var e = ReadOne(kind, body);

        Assert.Equal("it's", e.JobId);
        Assert.Equal("say \"hi\" \\ then\nleave café ☕", e.Status);
        Assert.Null(e.ContainerId);
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void ReadsAClassicInnerDocumentWrittenWithDoubleQuotes(SerializerKind kind)
    {
        const string body = """{"data": "{\"job_id\":\"j1\",\"status\":\"ok\"}"}""";

        var e = ReadOne(kind, body);

        Assert.Equal("j1", e.JobId);
        Assert.Equal("ok", e.Status);
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void NormalisesTypedEvents(SerializerKind kind)
    {
        var job = ReadOne(kind, """{"type":"JOB","source":"  b-1 ","timestamp":"2026-11-22T11:00:00+01:00","job_id":"j","status":"done","extra":[1,2]}""");
        Assert.Equal(EventType.Job, job.Type);
        Assert.Equal("b-1", job.Source);
        Assert.Equal(new DateTime(2026, 11, 22, 10, 0, 0, DateTimeKind.Utc), job.Timestamp);
        Assert.Equal(DateTimeKind.Utc, job.Timestamp.Kind);

        var metric = ReadOne(kind, """{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":-1.5e3,"job_id":"not mine"}""");
        Assert.Equal(-1500.0, metric.Value);
        Assert.Null(metric.Unit);
        Assert.Null(metric.JobId);

        var log = ReadOne(kind, """{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00.123Z","level":"WARN","message":"ünïcödé \ud83d\ude00"}""");
        Assert.Equal("warn", log.Level);
        Assert.Equal("ünïcödé 😀", log.Message);
        Assert.Equal(123, log.Timestamp.Millisecond);
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void ReadsIntegersTooLargeForLongAsNumbers(SerializerKind kind)
    {
        var metric = ReadOne(kind, """{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","name":"big","value":123456789012345678901234567890}""");
        Assert.Equal(1.2345678901234568E+29, metric.Value);
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void ReadsBatchesInBothFormats(SerializerKind kind)
    {
        var reader = Serializers.Reader(kind);
        var fromArray = new List<IngestEvent>();
        var fromLines = new List<IngestEvent>();

        Assert.Null(reader.Read(Utf8(SamplePayloads.JsonArray(100)), PayloadFormat.Json, fromArray));
        Assert.Null(reader.Read(Utf8("\n\r\n" + SamplePayloads.Ndjson(100).Replace("\n", "\r\n\n", StringComparison.Ordinal)), PayloadFormat.Ndjson, fromLines));

        Assert.Equal(100, fromArray.Count);
        Assert.Equal(100, fromLines.Count);
        var (jobs, metrics, logs) = SamplePayloads.MixedCounts(100);
        Assert.Equal(jobs, fromArray.Count(e => e.Type == EventType.Job));
        Assert.Equal(metrics, fromArray.Count(e => e.Type == EventType.Metric));
        Assert.Equal(logs, fromArray.Count(e => e.Type == EventType.Log));
        for (var i = 0; i < 100; i++)
        {
            Assert.Equal(fromArray[i].Type, fromLines[i].Type);
            Assert.Equal(fromArray[i].Source, fromLines[i].Source);
        }
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void AcceptsAByteOrderMarkAndSurroundingWhitespace(SerializerKind kind)
    {
        var e = ReadOne(kind, "\uFEFF \r\n" + SamplePayloads.Classic + "\n\t ");
        Assert.Equal("c4bb6d130003", e.JobId);
    }

    public static TheoryData<SerializerKind, string, PayloadFormat, ProblemKind, string?> BadBodies()
    {
        var cases = new (string Body, PayloadFormat Format, ProblemKind Kind, string? Field)[]
        {
            ("", PayloadFormat.Json, ProblemKind.EmptyBody, null),
            ("  \n ", PayloadFormat.Json, ProblemKind.EmptyBody, null),
            ("[]", PayloadFormat.Json, ProblemKind.EmptyBody, null),
            ("\n\n", PayloadFormat.Ndjson, ProblemKind.EmptyBody, null),
            ("{\"type\":", PayloadFormat.Json, ProblemKind.MalformedJson, null),
            ("{\"type\":\"job\"} trailing", PayloadFormat.Json, ProblemKind.MalformedJson, null),
            ("[{\"data\": 1}]", PayloadFormat.Json, ProblemKind.InvalidField, "$[0].data"),
            ("null", PayloadFormat.Json, ProblemKind.InvalidField, "$"),
            ("[null]", PayloadFormat.Json, ProblemKind.InvalidField, "$[0]"),
            ("\"just a string\"", PayloadFormat.Json, ProblemKind.InvalidField, "$"),
            ("{}", PayloadFormat.Json, ProblemKind.MissingField, "$.type"),
            ("{\"type\":\"trace\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\"}", PayloadFormat.Json, ProblemKind.UnknownType, "$.type"),
            ("{\"type\":\"job\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.MissingField, "$.source"),
            ("{\"type\":\"job\",\"source\":\" \",\"timestamp\":\"2026-11-22T10:00:00Z\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.source"),
            ("{\"type\":\"job\",\"source\":\"s\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.MissingField, "$.timestamp"),
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"yesterday\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.timestamp"),
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.timestamp"),
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":1700000000,\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.timestamp"),
            // Regression (found by fuzzing the validator): DateTime's default instant, which the back-end reads as absent.
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"0001-01-01T00:00:00Z\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.timestamp"),
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"0001-01-01T01:00:00+01:00\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.timestamp"),
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.MissingField, "$.job_id"),
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"job_id\":123,\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.job_id"),
            ("{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"job_id\":\"j\",\"status\":true}", PayloadFormat.Json, ProblemKind.InvalidField, "$.status"),
            ("{\"type\":\"metric\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"name\":\"cpu\"}", PayloadFormat.Json, ProblemKind.MissingField, "$.value"),
            ("{\"type\":\"metric\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"name\":\"cpu\",\"value\":\"0.5\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.value"),
            ("{\"type\":\"metric\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"name\":\"cpu\",\"value\":1e400}", PayloadFormat.Json, ProblemKind.InvalidField, "$.value"),
            ("{\"type\":\"log\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"loud\",\"message\":\"m\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.level"),
            ("{\"type\":\"log\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"info\"}", PayloadFormat.Json, ProblemKind.MissingField, "$.message"),
            ("{\"data\": \"{'status':'ok'}\"}", PayloadFormat.Json, ProblemKind.MissingField, "$.data.job_id"),
            ("{\"data\": \"{'job_id':'x','status':'unterminated}\"}", PayloadFormat.Json, ProblemKind.MalformedJson, null),
            ("{\"data\": \"{'job_id': 12, 'status':'s'}\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.data.job_id"),
            ("{\"data\": \"'not an object'\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.data"),
            ("{\"data\": \"{'job_id':'x','status':'s'\"}", PayloadFormat.Json, ProblemKind.MalformedJson, null),
            ("[" + SamplePayloads.Job(0) + "," + SamplePayloads.Job(1).Replace("\"job_id\"", "\"jobid\"", StringComparison.Ordinal) + "]", PayloadFormat.Json, ProblemKind.MissingField, "$[1].job_id"),
            (SamplePayloads.Job(0) + "\n\n" + SamplePayloads.Metric(1).Replace("0.01", "\"x\"", StringComparison.Ordinal) + "\n", PayloadFormat.Ndjson, ProblemKind.InvalidField, "$[1].value"),
            (SamplePayloads.Job(0) + "\n{\"type\":", PayloadFormat.Ndjson, ProblemKind.MalformedJson, null),
            ("[{\"data\": \"{'status':'s'}\"}]", PayloadFormat.Json, ProblemKind.MissingField, "$[0].data.job_id"),
            ("{\"type\":\"job\",\"type\":\"log\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"info\",\"message\":\"m\"}", PayloadFormat.Json, ProblemKind.InvalidField, null),
            ("{\"data\": \"{'job_id':'a','job_id':'b','status':'s'}\"}", PayloadFormat.Json, ProblemKind.InvalidField, null),
            ("{\"type\":\"log\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"info\",\"message\":\"a\\u0000b\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.message"),
            ("{\"a\":" + new string('[', 10_000) + new string(']', 10_000) + "}", PayloadFormat.Json, ProblemKind.MalformedJson, null),
            ("{\"a\":" + string.Concat(Enumerable.Repeat("{\"a\":", 100)) + "1" + new string('}', 101), PayloadFormat.Json, ProblemKind.MalformedJson, null),
            ("{\"type\":\"job\",\"source\":\"" + new string('s', 257) + "\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"job_id\":\"j\",\"status\":\"s\"}", PayloadFormat.Json, ProblemKind.InvalidField, "$.source"),
        };

        var data = new TheoryData<SerializerKind, string, PayloadFormat, ProblemKind, string?>();
        foreach (var kind in Enum.GetValues<SerializerKind>())
        {
            foreach (var (body, format, problem, field) in cases)
            {
                data.Add(kind, body, format, problem, field);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(BadBodies))]
    public void RejectsBadBodiesWithTheContractsProblem(SerializerKind kind, string body, PayloadFormat format, ProblemKind expected, string? field)
    {
        var events = new List<IngestEvent>();

        var problem = Serializers.Reader(kind).Read(Utf8(body), format, events);

        Assert.NotNull(problem);
        Assert.Equal(expected, problem.Kind());
        Assert.Equal(400, problem.Status);
        if (field is not null)
        {
            Assert.Equal(field, problem.Field);
        }

        Assert.False(string.IsNullOrWhiteSpace(problem.Detail));
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void RejectsBatchesOverTheLimitAsTooLarge(SerializerKind kind)
    {
        var reader = Serializers.Reader(kind, maxBatchEvents: 10);

        var array = reader.Read(Utf8(SamplePayloads.JsonArray(11)), PayloadFormat.Json, []);
        var lines = reader.Read(Utf8(SamplePayloads.Ndjson(11)), PayloadFormat.Ndjson, []);

        Assert.Equal(ProblemKind.PayloadTooLarge, array?.Kind());
        Assert.Equal(ProblemKind.PayloadTooLarge, lines?.Kind());
        Assert.Equal(413, array?.Status);
        Assert.Null(reader.Read(Utf8(SamplePayloads.JsonArray(10)), PayloadFormat.Json, []));
    }

    [Fact]
    public void RejectsInvalidUtf8()
    {
        foreach (var kind in Enum.GetValues<SerializerKind>())
        {
            byte[] body = [.. "{\"type\":\"log\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"info\",\"message\":\""u8, 0xC3, 0x28, .. "\"}"u8];
            var problem = Serializers.Reader(kind).Read(body, PayloadFormat.Json, []);
            Assert.True(problem is { Status: 400 }, $"{kind} accepted invalid UTF-8");
        }
    }

    private static IngestEvent ReadOne(SerializerKind kind, string body)
    {
        var events = new List<IngestEvent>();
        var problem = Serializers.Reader(kind).Read(Utf8(body), PayloadFormat.Json, events);
        Assert.True(problem is null, problem?.Detail + " " + problem?.Field);
        return Assert.Single(events);
    }

    private static byte[] Utf8(string s) => Encoding.UTF8.GetBytes(s);
}
