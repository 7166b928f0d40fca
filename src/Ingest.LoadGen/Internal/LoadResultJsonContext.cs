using System.Text.Json.Serialization;

namespace Ingest.LoadGen.Internal;

[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    UseStringEnumConverter = true,
    WriteIndented = true)]
[JsonSerializable(typeof(LoadResult))]
internal sealed partial class LoadResultJsonContext : JsonSerializerContext;
