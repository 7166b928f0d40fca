using Ingest.Core.Serialization;

namespace Ingest.Hosting;

/// <summary>Options both services share. Bound from the <c>Ingest</c> section, validated at start-up.</summary>
public sealed class IngestOptions
{
    public const string SectionName = "Ingest";

    /// <summary>Defaults to <see cref="SerializerKind.SystemTextJsonSourceGen"/>.</summary>
    public SerializerKind Serializer { get; set; } = SerializerKind.SystemTextJsonSourceGen;

    /// <summary>Defaults to <see cref="Hosting.ApiStyle.Minimal"/>.</summary>
    public ApiStyle ApiStyle { get; set; } = ApiStyle.Minimal;

    /// <summary>Largest request body accepted; larger ones get 413. Also Kestrel's MaxRequestBodySize.
    /// Defaults to 1 MiB.</summary>
    public int MaxBodyBytes { get; set; } = 1024 * 1024;

    /// <summary>Most events in one front-end request (JSON array or NDJSON); more get 413. Defaults to 1,000.</summary>
    public int MaxBatchEvents { get; set; } = 1_000;
}
