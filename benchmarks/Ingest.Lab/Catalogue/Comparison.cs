namespace Ingest.Lab.Catalogue;

/// <summary>
/// A question a set answers with a verdict: <paramref name="Subject"/>'s throughput against
/// <paramref name="Baseline"/>'s, both scenario names of the same set under the same load.
/// </summary>
internal sealed record Comparison(string Question, string Subject, string Baseline);
