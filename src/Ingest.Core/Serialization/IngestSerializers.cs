using System.Diagnostics.CodeAnalysis;

namespace Ingest.Core.Serialization;

/// <summary>Creates the serializer a <see cref="SerializerKind"/> names.</summary>
public static class IngestSerializers
{
    /// <summary>True when the serializer can run in this process: the reflection-based ones cannot under Native AOT or
    /// in a trimmed build (<see cref="ReflectionSupport"/>).</summary>
    public static bool IsSupported(SerializerKind kind) =>
        kind == SerializerKind.SystemTextJsonSourceGen || ReflectionSupport.IsEnabled;

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "The reflection-based serializers are reached only where ReflectionSupport.IsEnabled; services refuse them elsewhere at start-up.")]
    [UnconditionalSuppressMessage("AOT", "IL3050", Justification = "As above.")]
    public static IIngestSerializer Create(SerializerKind kind, int maxDepth = SerializerLimits.MaxDepth)
    {
        if (kind == SerializerKind.SystemTextJsonSourceGen)
        {
            return SystemTextJsonIngestSerializer.SourceGenerated(maxDepth);
        }

        // Tested directly (not through IsSupported) so the trimmer and the Native AOT compiler see the branch is dead
        // and leave the reflection-based serializers out of the program altogether.
        if (!ReflectionSupport.IsEnabled)
        {
            throw new NotSupportedException($"The {kind} serializer needs reflection, which {ReflectionSupport.MissingIn} does not have: use {nameof(SerializerKind.SystemTextJsonSourceGen)}.");
        }

        return kind switch
        {
            SerializerKind.Newtonsoft => new NewtonsoftIngestSerializer(maxDepth),
            SerializerKind.SystemTextJson => SystemTextJsonIngestSerializer.Reflection(maxDepth),
            _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown serializer."),
        };
    }
}
