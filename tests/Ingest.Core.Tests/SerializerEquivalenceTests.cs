using System.Text.Json.Nodes;
using Ingest.Core.Buffers;
using Ingest.Core.Contract;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;

namespace Ingest.Core.Tests;

public sealed class SerializerEquivalenceTests
{
    private static readonly List<IngestEvent> Events =
    [
        new() { Type = EventType.Job, Source = "classic", Timestamp = At(0), ReceivedAt = At(1), JobId = "c4bb6d130003", ContainerId = "ab7b85dcac72", Status = "Success: \"quoted\" \\ café ☕" },
        new() { Type = EventType.Metric, Source = "node-1", Timestamp = At(2), ReceivedAt = At(3), Name = "cpu", Value = 0.93, Unit = "ratio" },
        new() { Type = EventType.Metric, Source = "node-2", Timestamp = At(2), ReceivedAt = At(3), Name = "count", Value = 5 },
        new() { Type = EventType.Log, Source = "api", Timestamp = At(4), ReceivedAt = At(5), Level = "warn", Message = "line\nbreak\ttab" },
    ];

    [Fact]
    public void EverySerializerWritesEquivalentForwardBodies()
    {
        var reference = JsonNode.Parse(Write(SerializerKind.SystemTextJsonSourceGen, s => s.WriteEvents, Events));
        foreach (var kind in Enum.GetValues<SerializerKind>())
        {
            var written = JsonNode.Parse(Write(kind, s => s.WriteEvents, Events));
            Assert.True(JsonNode.DeepEquals(Normalize(reference), Normalize(written)), $"{kind} wrote {written}");
        }
    }

    [Fact]
    public void TheForwardBodyHasTheContractsShape()
    {
        var body = JsonNode.Parse(Write(SerializerKind.Newtonsoft, s => s.WriteEvents, Events))!.AsArray();

        var job = body[0]!.AsObject();
        Assert.Equal("job", (string?)job["type"]);
        Assert.Equal("2026-11-22T10:00:00Z", (string?)job["timestamp"]);
        Assert.Equal("2026-11-22T10:00:00.5Z", (string?)job["received_at"]);
        Assert.Equal("c4bb6d130003", (string?)job["job_id"]);
        Assert.False(job.ContainsKey("value"), "null members are omitted");
        Assert.Equal("metric", (string?)body[1]!["type"]);
        Assert.Equal("log", (string?)body[3]!["type"]);
    }

    [Fact]
    public void AnySerializerReadsWhatAnyOtherWrote()
    {
        foreach (var writer in Enum.GetValues<SerializerKind>())
        {
            var bytes = System.Text.Encoding.UTF8.GetBytes(Write(writer, s => s.WriteEvents, Events));
            foreach (var reader in Enum.GetValues<SerializerKind>())
            {
                var read = IngestSerializers.Create(reader).ReadEvents(bytes);
                Assert.Equal(Events.Count, read.Count);
                for (var i = 0; i < Events.Count; i++)
                {
                    EventAssert.Same(Events[i], read[i]!, $"{writer} -> {reader}");
                }
            }
        }
    }

    [Fact]
    public void EverySerializerWritesTheResponsesAlike()
    {
        var problem = IngestProblem.Create(ProblemKind.MissingField, "'job_id' is required.", "$[3].job_id");
        foreach (var kind in Enum.GetValues<SerializerKind>())
        {
            Assert.Equal("""{"accepted":3}""", Write(kind, s => s.Write, new IngestAck { Accepted = 3 }));
            Assert.Equal("""{"message":"Hello, World!"}""", Write(kind, s => s.Write, new HelloMessage()));
            var stats = JsonNode.Parse(Write(kind, s => s.Write, new IngestStats { Total = 3, ByType = new TypeCounts { Job = 1, Metric = 2 } }))!;
            Assert.Equal(2, (long)stats["by_type"]!["metric"]!);
            var written = JsonNode.Parse(Write(kind, s => s.Write, problem))!.AsObject();
            Assert.Equal("urn:ingest:problem:missing-field", (string?)written["type"]);
            Assert.Equal(400, (int)written["status"]!);
            Assert.Equal("$[3].job_id", (string?)written["field"]);
            Assert.False(written.ContainsKey("retry_after_seconds"));
        }
    }

    private static DateTime At(int seconds) => new DateTime(2026, 11, 22, 10, 0, 0, DateTimeKind.Utc).AddSeconds(seconds / 2.0);

    private static string Write<T>(SerializerKind kind, Func<IIngestSerializer, Action<PooledBufferWriter, T>> write, T value)
    {
        using var buffer = new PooledBufferWriter();
        write(IngestSerializers.Create(kind))(buffer, value);
        return System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    // Serializers may spell a number differently (5 vs 5.0): compare numbers by value.
    private static JsonNode? Normalize(JsonNode? node) => node switch
    {
        JsonObject o => new JsonObject(o.Select(p => KeyValuePair.Create(p.Key, Normalize(p.Value)))),
        JsonArray a => new JsonArray([.. a.Select(Normalize)]),
        JsonValue v when v.TryGetValue<double>(out var d) => JsonValue.Create(d),
        _ => node?.DeepClone(),
    };
}
