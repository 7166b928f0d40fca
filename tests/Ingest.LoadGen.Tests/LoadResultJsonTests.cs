namespace Ingest.LoadGen.Tests;

public sealed class LoadResultJsonTests(TestServerFixture fixture) : IClassFixture<TestServerFixture>
{
    [Fact]
    public async Task AResultSurvivesAJsonRoundTrip()
    {
        var options = Options.Closed(fixture.Server.Url("/status"), requests: 30);
        var result = await LoadRunner.RunAsync(options);

        var json = LoadResultJson.Serialize(result);
        var read = LoadResultJson.Deserialize(json);

        Assert.Contains("\"schemaVersion\": 1", json, StringComparison.Ordinal);
        Assert.Contains("\"mode\": \"ClosedLoop\"", json, StringComparison.Ordinal);
        Assert.Equal(result.Requests, read.Requests);
        Assert.Equal(result.Latency.P99Ms, read.Latency.P99Ms);
        Assert.Equal(result.Latency.Histogram, read.Latency.Histogram);
        Assert.Equal(result.Errors.NonSuccessStatusCodes, read.Errors.NonSuccessStatusCodes);
        Assert.Equal(result.StatusCodes, read.StatusCodes);
        Assert.Equal(result.Timeline, read.Timeline);
        Assert.Equal(result.Settings.Url, read.Settings.Url);
        Assert.Equal(result.StopReason, read.StopReason);
    }
}
