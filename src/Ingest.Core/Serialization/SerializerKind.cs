namespace Ingest.Core.Serialization;

/// <summary>The JSON serializers Ingest can run with; chosen by <c>Ingest:Serializer</c>.</summary>
public enum SerializerKind
{
    /// <summary>Newtonsoft.Json, as the 2016 original used.</summary>
    Newtonsoft,

    /// <summary>System.Text.Json with reflection-based metadata.</summary>
    SystemTextJson,

    /// <summary>System.Text.Json with source-generated metadata and fast-path writers (Native AOT compatible).</summary>
    SystemTextJsonSourceGen,
}
