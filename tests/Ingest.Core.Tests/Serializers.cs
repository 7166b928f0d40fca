using Ingest.Core.Parsing;
using Ingest.Core.Serialization;

namespace Ingest.Core.Tests;

/// <summary>The serializer matrix every parsing test runs over.</summary>
internal static class Serializers
{
    public static readonly DateTime ReceivedAt = new(2026, 11, 22, 12, 0, 0, DateTimeKind.Utc);

    public static TheoryData<SerializerKind> All => new(Enum.GetValues<SerializerKind>());

    public static IngestRequestReader Reader(SerializerKind kind, int maxBatchEvents = 1000) =>
        new(IngestSerializers.Create(kind), new FixedTime(ReceivedAt), maxBatchEvents);

    private sealed class FixedTime(DateTime now) : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => new(now);
    }
}
