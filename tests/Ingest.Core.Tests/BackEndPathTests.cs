using System.Text;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Tests;

public sealed class BackEndPathTests
{
    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void ReadsASingleEventOrAnArray(SerializerKind kind)
    {
        var reader = new ForwardBodyReader(IngestSerializers.Create(kind));
        var one = """{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","level":"info","message":"m"}""";
        var events = new List<IngestEvent>();

        Assert.Null(reader.Read(Encoding.UTF8.GetBytes(one), events));
        Assert.Null(reader.Read(Encoding.UTF8.GetBytes("[" + one + "," + one + "]"), events));
        Assert.Equal(3, events.Count);
    }

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void ReadsForwardedTimesWithAnOffsetAsUtc(SerializerKind kind)
    {
        var body = """{"type":"log","source":"a","timestamp":"2026-11-22T11:00:00.5+01:00","received_at":"2026-11-22T10:00:01Z","level":"info","message":"m"}""";
        var events = new List<IngestEvent>();

        Assert.Null(new ForwardBodyReader(IngestSerializers.Create(kind)).Read(Encoding.UTF8.GetBytes(body), events));
        Assert.Equal(new DateTime(2026, 11, 22, 10, 0, 0, 500, DateTimeKind.Utc), events[0].Timestamp);
        Assert.Equal(DateTimeKind.Utc, events[0].Timestamp.Kind);
        Assert.Equal(DateTimeKind.Utc, events[0].ReceivedAt.Kind);
    }

    [Theory]
    [InlineData("""[{"type":"job","source":"a","timestamp":"2026-11-22T10:00:00Z","status":"s"}]""", ProblemKind.MissingField, "$[0].job_id")]
    [InlineData("""[{"type":"bogus","source":"a","timestamp":"2026-11-22T10:00:00Z"}]""", ProblemKind.InvalidField, null)]
    [InlineData("""[{"source":"a","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}]""", ProblemKind.MissingField, "$[0].type")]
    [InlineData("""{"type":"metric","source":"a","timestamp":"2026-11-22T10:00:00Z","name":"n"}""", ProblemKind.MissingField, "$.value")]
    [InlineData("""[{"type":"log","source":"a","level":"info","message":"m"}]""", ProblemKind.MissingField, "$[0].timestamp")]
    // Regression (found by fuzzing the forward-body reader): System.Text.Json took a date without an offset, an unknown
    // instant, and Newtonsoft took whatever DateTime.Parse takes.
    [InlineData("""[{"type":"log","source":"a","timestamp":"2026-11-22T10:00","level":"info","message":"m"}]""", ProblemKind.InvalidField, "$[0].timestamp")]
    [InlineData("""[{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01","level":"info","message":"m"}]""", ProblemKind.InvalidField, "$[0].received_at")]
    [InlineData("""[{"type":"log","source":"a","timestamp":"11/22/2026 10:00:00 +00:00","level":"info","message":"m"}]""", ProblemKind.InvalidField, "$[0].timestamp")]
    [InlineData("""[{"type":"log","source":"a","timestamp":1,"level":"info","message":"m"}]""", ProblemKind.InvalidField, "$[0].timestamp")]
    [InlineData("[]", ProblemKind.EmptyBody, null)]
    [InlineData("[1", ProblemKind.MalformedJson, null)]
    public void RejectsEventsThatAreNotNormalised(string body, ProblemKind expected, string? field)
    {
        foreach (var kind in Enum.GetValues<SerializerKind>())
        {
            var problem = new ForwardBodyReader(IngestSerializers.Create(kind)).Read(Encoding.UTF8.GetBytes(body), []);
            Assert.True(problem?.Kind() == expected, $"{kind}: {problem?.Type} {problem?.Detail}");
            if (field is not null)
            {
                Assert.Equal(field, problem!.Field);
            }
        }
    }

    // System.Text.Json reads an array body element by element (no list as the root): the array's own syntax is refused
    // as malformed wherever it breaks, and an element's problem keeps its index. Newtonsoft differs on some of these
    // (it takes a trailing comma), so these hold for the System.Text.Json readers.
    [Theory]
    [InlineData("[", ProblemKind.MalformedJson, "$[0]")]
    [InlineData("[{\"type\":\"log\"} {\"type\":\"log\"}]", ProblemKind.MalformedJson, "$[1]")]
    [InlineData("[{\"type\":\"log\",\"source\":\"a\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"received_at\":\"2026-11-22T10:00:01Z\",\"level\":\"info\",\"message\":\"m\"}] []", ProblemKind.MalformedJson, "$[1]")]
    [InlineData("[{\"type\":\"log\",\"source\":\"a\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"received_at\":\"2026-11-22T10:00:01Z\",\"level\":\"info\",\"message\":\"m\"},]", ProblemKind.MalformedJson, "$[1]")]
    [InlineData("[{\"type\":\"log\",\"source\":\"a\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"received_at\":\"2026-11-22T10:00:01Z\",\"level\":\"info\",\"message\":\"m\"},null]", ProblemKind.InvalidField, "$[1]")]
    [InlineData("[{\"type\":\"log\",\"source\":\"a\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"received_at\":\"2026-11-22T10:00:01Z\",\"level\":\"info\",\"message\":\"m\"},{\"type\":[\"log\"]}]", ProblemKind.InvalidField, "$[1].type")]
    [InlineData("\uFEFF[]", ProblemKind.MalformedJson, "$")]
    // Deeper than the limit inside an element: refused as malformed before its type is looked at (the list as the root
    // had said the element was not an event, from its first token).
    [InlineData("[" + "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[" + "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]" + "]", ProblemKind.MalformedJson, "$[0]")]
    public void SystemTextJsonReadsAnArrayElementByElement(string body, ProblemKind expected, string? field)
    {
        foreach (var kind in new[] { SerializerKind.SystemTextJson, SerializerKind.SystemTextJsonSourceGen })
        {
            var problem = new ForwardBodyReader(IngestSerializers.Create(kind)).Read(Encoding.UTF8.GetBytes(body), []);
            Assert.True(problem?.Kind() == expected, $"{kind}: {problem?.Type} {problem?.Detail}");
            if (field is not null)
            {
                Assert.Equal(field, problem!.Field);
            }
        }
    }

    [Fact]
    public async Task RoutesEachTypeToItsSinkAndCountsOnlyWhatWasWritten()
    {
        var statistics = new SinkStatistics();
        var router = new SinkRouter(Options.Create(new SinkOptions { Default = SinkKind.Null, Log = SinkKind.Memory, RecentCapacity = 2 }), statistics);
        var events = new List<IngestEvent>
        {
            Event(EventType.Job, "1"), Event(EventType.Log, "2"), Event(EventType.Metric, "3"), Event(EventType.Log, "4"), Event(EventType.Log, "5"),
        };

        await router.WriteAsync(events, CancellationToken.None);

        Assert.Equal(SinkKind.Null, router.SinkFor(EventType.Job).Kind);
        Assert.Equal(SinkKind.Memory, router.SinkFor(EventType.Log).Kind);
        var memory = Assert.IsType<MemorySink>(router.SinkFor(EventType.Log));
        Assert.Equal(["4", "5"], memory.Recent().Select(e => e.Source));
        var stats = statistics.Snapshot();
        Assert.Equal(5, stats.Total);
        Assert.Equal(1, stats.ByType.Job);
        Assert.Equal(1, stats.ByType.Metric);
        Assert.Equal(3, stats.ByType.Log);
    }

    [Fact]
    public async Task AnInjectedDropLosesExactlyOneEventInN()
    {
        var statistics = new SinkStatistics();
        var persister = new EventPersister(
            new SinkRouter(Options.Create(new SinkOptions { Default = SinkKind.Null }), statistics),
            Options.Create(new FaultOptions { DropOneIn = 10 }));

        for (var request = 0; request < 7; request++)
        {
            await persister.PersistAsync([.. Enumerable.Range(0, 15).Select(i => Event(EventType.Job, $"{request}-{i}"))], CancellationToken.None);
        }

        Assert.Equal(105 - 10, statistics.Snapshot().Total);
    }

    private static IngestEvent Event(EventType type, string source) =>
        new() { Type = type, Source = source, Timestamp = DateTime.UtcNow, ReceivedAt = DateTime.UtcNow };
}
