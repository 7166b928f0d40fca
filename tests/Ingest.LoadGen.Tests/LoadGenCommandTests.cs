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
    public async Task ARunWithoutAnyResponseExitsWithOne()
    {
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await LoadGenCommand.RunAsync(
            ["--url", fixture.Server.Url("/hang").ToString(), "-c", "1", "-d", "300ms", "--warmup", "0", "--timeout", "100ms"],
            output, error);

        Assert.Equal(LoadGenCommand.NothingMeasured, code);
    }
}
