using System.Text.Json;
using Ingest.LoadGen.Internal;

namespace Ingest.LoadGen;

/// <summary>Reads and writes <see cref="LoadResult"/> as the <c>--json</c> file does: camelCase members,
/// enums as strings, source-generated (no reflection, trimming- and AOT-safe).</summary>
public static class LoadResultJson
{
    public static string Serialize(LoadResult result) => JsonSerializer.Serialize(result, LoadResultJsonContext.Default.LoadResult);

    public static LoadResult Deserialize(string json) =>
        JsonSerializer.Deserialize(json, LoadResultJsonContext.Default.LoadResult) ??
        throw new JsonException("The JSON holds null, not a load result.");

    public static async Task WriteAsync(Stream stream, LoadResult result, CancellationToken cancellationToken = default) =>
        await JsonSerializer.SerializeAsync(stream, result, LoadResultJsonContext.Default.LoadResult, cancellationToken);

    public static async Task<LoadResult> ReadAsync(Stream stream, CancellationToken cancellationToken = default) =>
        await JsonSerializer.DeserializeAsync(stream, LoadResultJsonContext.Default.LoadResult, cancellationToken) ??
        throw new JsonException("The JSON holds null, not a load result.");
}
