using Ingest.Core.Parsing;
using Ingest.Core.Serialization;

namespace Ingest.Fuzz;

/// <summary>
/// The serializers a target chooses between with its input's first byte, so afl-fuzz explores all three with one
/// corpus. Created once: a target runs thousands of times per second in one process.
/// </summary>
internal static class FuzzSerializers
{
    /// <summary>A fixed clock: a target's answer depends on its input only, so a finding replays.</summary>
    public static readonly DateTime ReceivedAt = new(2026, 11, 22, 12, 0, 0, DateTimeKind.Utc);

    /// <summary>The services' default batch limit (Ingest:MaxBatchEvents).</summary>
    private const int MaxBatchEvents = 1000;

    private static readonly IIngestSerializer[] s_all = [.. Enum.GetValues<SerializerKind>().Select(kind => IngestSerializers.Create(kind))];

    private static readonly IngestRequestReader[] s_requestReaders = [.. s_all.Select(s => new IngestRequestReader(s, new FixedTime(), MaxBatchEvents))];

    private static readonly ForwardBodyReader[] s_forwardReaders = [.. s_all.Select(s => new ForwardBodyReader(s))];

    public static IReadOnlyList<IIngestSerializer> All => s_all;

    public static int Count => s_all.Length;

    /// <summary>Serializer <c>selector % 3</c>: Newtonsoft, SystemTextJson, SystemTextJsonSourceGen (the enum's order).</summary>
    public static IIngestSerializer Pick(byte selector) => s_all[selector % s_all.Length];

    public static IngestRequestReader RequestReader(IIngestSerializer serializer) => s_requestReaders[Array.IndexOf(s_all, serializer)];

    public static ForwardBodyReader ForwardReader(IIngestSerializer serializer) => s_forwardReaders[Array.IndexOf(s_all, serializer)];

    private sealed class FixedTime : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => new(ReceivedAt);
    }
}
