using Ingest.LoadGen.Cli;

namespace Ingest.LoadGen.Tests;

public sealed class LoadGenCommandTests(TestServerFixture fixture) : IClassFixture<TestServerFixture>
{
    [Fact]
    public async Task TheCommandPrintsASummaryWritesJsonAndEndsStdoutWithCranksBlock()
    {
        var json = Path.GetTempFileName();
        try
        {
            using var output = new StringWriter();
            using var error = new StringWriter();

            var code = await LoadGenCommand.RunAsync(
                ["--url", fixture.Server.Url("/plaintext").ToString(), "-c", "2", "-t", "1", "--requests", "50", "--warmup", "0",
                 "--json", json, "--crank"],
                output, error);

            Assert.Equal(LoadGenCommand.Success, code);
            Assert.Empty(error.ToString());
            var text = output.ToString();
            Assert.Contains("Requests/sec", text, StringComparison.Ordinal);
            Assert.EndsWith(CrankStatistics.EndMarker + Environment.NewLine, text, StringComparison.Ordinal);
            var result = LoadResultJson.Deserialize(await File.ReadAllTextAsync(json));
            Assert.Equal(50, result.Requests);
            Assert.Equal(LoadStopReason.Requests, result.StopReason);
        }
        finally
        {
            File.Delete(json);
        }
    }

    [Fact]
    public async Task ARunWithoutAnyResponseExitsWithOneAndSaysWhy()
    {
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await LoadGenCommand.RunAsync(
            ["--url", fixture.Server.Url("/hang").ToString(), "-c", "1", "-d", "300ms", "--warmup", "0", "--timeout", "100ms"],
            output, error);

        Assert.Equal(LoadGenCommand.NothingMeasured, code);
        Assert.Contains("error: no response in the 0.3 s measured", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheLossCheckCountsWarmUpAndMeasuredEventsAgainstTheBackEndsTotal()
    {
        await using var backEnd = await TestServer.StartAsync();
        backEnd.EventsPerStore = 3;
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await LoadGenCommand.RunAsync(
            ["--url", backEnd.Url("/ingest/data").ToString(), "--body", BodyFile(), "-c", "2", "-t", "1", "--requests", "120",
             "--warmup", "300ms", "--loss-check", backEnd.BaseUrl.ToString(), "--events-per-request", "3", "--crank"],
            output, error);

        Assert.Equal(LoadGenCommand.Success, code);
        Assert.Empty(error.ToString());
        var statistics = CrankMeasurements(output.ToString());
        var acknowledged = statistics["ingest/events/acknowledged"];
        // 120 measured requests and every warm-up one, 3 events each, all persisted.
        Assert.True(acknowledged > 120 * 3, $"the warm-up's requests are counted too: {acknowledged}");
        Assert.Equal(0, acknowledged % 3);
        Assert.Equal(acknowledged, statistics["ingest/events/persisted"]);
        Assert.Equal(0, statistics["ingest/events/lost"]);
        Assert.Equal(1, statistics["ingest/losscheck"]);
        Assert.Contains("nothing lost", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheLossCheckFailsTheRunWhenTheBackEndDropsAcknowledgedEvents()
    {
        await using var backEnd = await TestServer.StartAsync();
        backEnd.DropOneIn = 50;
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await LoadGenCommand.RunAsync(
            ["--url", backEnd.Url("/ingest/data").ToString(), "--body", BodyFile(), "-c", "1", "-t", "1", "--requests", "200",
             "--warmup", "0", "--loss-check", backEnd.BaseUrl.ToString(), "--crank"],
            output, error);

        Assert.Equal(LoadGenCommand.LossCheckFailed, code);
        var statistics = CrankMeasurements(output.ToString());
        Assert.Equal(200, statistics["ingest/events/acknowledged"]);
        Assert.Equal(4, statistics["ingest/events/lost"]);
        Assert.Equal(0, statistics["ingest/losscheck"]);
        Assert.Contains("LOST 4 events", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ALossCheckThatCannotReachTheBackEndFailsTheRunAndSaysWhy()
    {
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await LoadGenCommand.RunAsync(
            ["--url", fixture.Server.Url("/plaintext").ToString(), "-c", "1", "-t", "1", "--requests", "10", "--warmup", "0",
             "--loss-check", fixture.Server.Url("/nowhere/").ToString()],
            output, error);

        Assert.Equal(LoadGenCommand.LossCheckFailed, code);
        Assert.Contains("--loss-check could not read", error.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--loss-check", "127.0.0.1:5001", "--loss-check expects the back-end's base URL")]
    [InlineData("--events-per-request", "0", "--events-per-request expects 1 or more")]
    public void LossCheckFlagsAreValidated(string flag, string value, string message)
    {
        var command = CommandLine.Parse(["--url", "http://127.0.0.1:1/", flag, value]);

        Assert.Contains(command.Errors, e => e.Contains(message, StringComparison.Ordinal));
    }

    private static string BodyFile()
    {
        var path = Path.Combine(Path.GetTempPath(), "ingest-loadgen-tests-event.json");
        File.WriteAllText(path, """{"type":"test"}""");
        return path;
    }

    /// <summary>The measurements of the Crank block at the end of the output, by name.</summary>
    private static Dictionary<string, double> CrankMeasurements(string output)
    {
        var start = output.IndexOf(CrankStatistics.StartMarker, StringComparison.Ordinal) + CrankStatistics.StartMarker.Length;
        var end = output.IndexOf(CrankStatistics.EndMarker, StringComparison.Ordinal);
        using var document = System.Text.Json.JsonDocument.Parse(output[start..end]);
        return document.RootElement.GetProperty("Measurements").EnumerateArray()
            .ToDictionary(m => m.GetProperty("Name").GetString()!, m => m.GetProperty("Value").GetDouble());
    }
}
