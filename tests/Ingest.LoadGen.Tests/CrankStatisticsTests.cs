using System.Text.Json;
using Ingest.LoadGen.Cli;
using Newtonsoft.Json;
using Newtonsoft.Json.Converters;

namespace Ingest.LoadGen.Tests;

public sealed class CrankStatisticsTests(TestServerFixture fixture) : IClassFixture<TestServerFixture>
{
    // Crank's shared http/ names, and the warm-up the run had (ingest/: ours).
    private static readonly string[] StandardNames =
    [
        "http/requests", "http/requests/badresponses", "http/requests/errors", "http/rps/mean", "http/latency/mean",
        "http/latency/50", "http/latency/75", "http/latency/90", "http/latency/95", "http/latency/99",
        "http/latency/max", "http/throughput", "http/firstrequest",
        "ingest/warmup/seconds", "ingest/warmup/stable",
    ];

    [Fact]
    public async Task TheBlockIsWellFormedJsonWithTheStandardNames()
    {
        var result = await LoadRunner.RunAsync(Options.Closed(fixture.Server.Url("/status"), requests: 90));

        var text = CrankStatistics.Format(result);

        var lines = text.TrimEnd().Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
        Assert.Equal(CrankStatistics.StartMarker, lines[0]);
        Assert.Equal(CrankStatistics.EndMarker, lines[^1]); // the agent looks for it on the last line
        var json = string.Join('\n', lines[1..^1]);
        using var document = JsonDocument.Parse(json);
        var metadata = document.RootElement.GetProperty("Metadata").EnumerateArray().ToList();
        var measurements = document.RootElement.GetProperty("Measurements").EnumerateArray().ToList();
        var described = new HashSet<string>();
        foreach (var item in metadata)
        {
            foreach (var member in new[] { "Source", "Name", "Aggregate", "Reduce", "ShortDescription", "LongDescription", "Format" })
            {
                Assert.Equal(JsonValueKind.String, item.GetProperty(member).ValueKind);
            }

            described.Add(item.GetProperty("Name").GetString()!);
        }

        foreach (var item in measurements)
        {
            Assert.True(item.GetProperty("Timestamp").TryGetDateTime(out _));
            Assert.Contains(item.GetProperty("Name").GetString()!, described);
            Assert.Equal(JsonValueKind.Number, item.GetProperty("Value").ValueKind);
        }

        Assert.Equal(StandardNames.Order(), described.Order());
        Assert.Equal(90, Value(measurements, "http/requests"));
        Assert.Equal(60, Value(measurements, "http/requests/badresponses"));
        Assert.Equal(result.Latency.P99Ms, Value(measurements, "http/latency/99"));
    }

    [Fact]
    public async Task CranksOwnModelReadsTheBlock()
    {
        var result = await LoadRunner.RunAsync(Options.Closed(fixture.Server.Url("/plaintext"), requests: 20));
        var lines = CrankStatistics.Format(result).TrimEnd().Split('\n');

        // The agent deserializes the lines between the markers into its JobStatistics with Newtonsoft.Json.
        var statistics = JsonConvert.DeserializeObject<CrankJobStatistics>(string.Join('\n', lines[1..^1]));

        Assert.NotNull(statistics);
        Assert.Equal(StandardNames.Length, statistics.Metadata.Count);
        Assert.Equal(StandardNames.Length, statistics.Measurements.Count);
        Assert.All(statistics.Metadata, m => Assert.Equal("Ingest.LoadGen", m.Source));
    }

    private static double Value(List<JsonElement> measurements, string name) =>
        measurements.Single(m => m.GetProperty("Name").GetString() == name).GetProperty("Value").GetDouble();

    /// <summary>The shape of Crank's Microsoft.Crank.Models.JobStatistics, MeasurementMetadata and Measurement.</summary>
    private sealed class CrankJobStatistics
    {
        public List<CrankMetadata> Metadata { get; } = [];

        public List<CrankMeasurement> Measurements { get; } = [];
    }

    private sealed class CrankMetadata
    {
        public string? Source { get; set; }

        public string? Name { get; set; }

        [Newtonsoft.Json.JsonConverter(typeof(StringEnumConverter))]
        public CrankOperation Reduce { get; set; }

        [Newtonsoft.Json.JsonConverter(typeof(StringEnumConverter))]
        public CrankOperation Aggregate { get; set; }

        public string? ShortDescription { get; set; }

        public string? LongDescription { get; set; }

        public string? Format { get; set; }
    }

    private sealed class CrankMeasurement
    {
        public DateTime Timestamp { get; set; }

        public string? Name { get; set; }

        public object? Value { get; set; }
    }

    private enum CrankOperation
    {
        First,
        Last,
        Avg,
        Sum,
        Median,
        Max,
        Min,
        Count,
        All,
        Delta,
    }
}
