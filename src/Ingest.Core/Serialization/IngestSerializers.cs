using System.Diagnostics.CodeAnalysis;

namespace Ingest.Core.Serialization;

/// <summary>Creates the serializer a <see cref="SerializerKind"/> names.</summary>
public static class IngestSerializers
{
    /// <summary>True when the serializer can run in this process: the reflection-based ones cannot under Native AOT.</summary>
    public static bool IsSupported(SerializerKind kind) =>
        kind == SerializerKind.SystemTextJsonSourceGen || System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeSupported;

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "Reflection-based serializers are refused by IsSupported when dynamic code is unavailable; callers check it at start-up.")]
    [UnconditionalSuppressMessage("AOT", "IL3050", Justification = "As above.")]
    public static IIngestSerializer Create(SerializerKind kind, int maxDepth = SerializerLimits.MaxDepth)
    {
        if (kind == SerializerKind.SystemTextJsonSourceGen)
        {
            return SystemTextJsonIngestSerializer.SourceGenerated(maxDepth);
        }

        // Tested directly (not through IsSupported) so the Native AOT compiler sees the branch is dead and
        // leaves the reflection-based serializers out of the binary altogether.
        if (!System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeSupported)
        {
            throw new NotSupportedException($"The {kind} serializer needs reflection, which Native AOT does not have: use {nameof(SerializerKind.SystemTextJsonSourceGen)}.");
        }

        return kind switch
        {
            SerializerKind.Newtonsoft => new NewtonsoftIngestSerializer(maxDepth),
            SerializerKind.SystemTextJson => SystemTextJsonIngestSerializer.Reflection(maxDepth),
            _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown serializer."),
        };
    }
}
