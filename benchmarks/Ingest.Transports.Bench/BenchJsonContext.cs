using System.Text.Json.Serialization;

namespace Ingest.Transports.Bench;

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(JsonMessage))]
internal sealed partial class BenchJsonContext : JsonSerializerContext;
