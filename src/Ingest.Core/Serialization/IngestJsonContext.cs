using System.Text.Json.Serialization;
using Ingest.Core.Contract;
using Ingest.Core.Events;
using Ingest.Core.Problems;

namespace Ingest.Core.Serialization;

/// <summary>
/// Source-generated System.Text.Json metadata for every type Ingest puts on the wire. The options here
/// are the contract's: snake_case members, nulls omitted, enums as their lower-case names.
/// <see cref="SystemTextJsonIngestSerializer.CreateReflectionOptions"/> mirrors them for the reflection path.
/// </summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    UseStringEnumConverter = true,
    Converters = [typeof(StrictDateTimeConverter)],
    MaxDepth = SerializerLimits.MaxDepth)]
[JsonSerializable(typeof(EventDocument))]
[JsonSerializable(typeof(List<EventDocument?>))]
[JsonSerializable(typeof(IngestEvent))]
[JsonSerializable(typeof(List<IngestEvent>))]
[JsonSerializable(typeof(List<IngestEvent?>))]
[JsonSerializable(typeof(IngestAck))]
[JsonSerializable(typeof(PersistAck))]
[JsonSerializable(typeof(IngestStats))]
[JsonSerializable(typeof(HelloMessage))]
[JsonSerializable(typeof(IngestProblem))]
internal sealed partial class IngestJsonContext : JsonSerializerContext;
