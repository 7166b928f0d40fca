using Ingest.LoadGen.Cli;

namespace Ingest.LoadGen.Tests;

public sealed class CommandLineTests
{
    [Fact]
    public void EveryFlagIsReadIntoTheOptions()
    {
        var body = Path.GetTempFileName();
        try
        {
            var command = CommandLine.Parse(
            [
                "--url", "http://127.0.0.1:5000/ingest/event", "-c", "32", "--pipeline", "4", "--rate", "1500.5",
                "-d", "2m", "--warmup", "500ms", "--requests", "1_000", "--timeout", "1.5s", "--body", body, "--body", body,
                "--method", "put", "-H", "X-A: 1", "--header=X-B: two", "--content-type", "application/x-ndjson",
                "--json", "out.json", "--crank", "-t", "3",
            ]);

            Assert.Empty(command.Errors);
            var o = command.Options;
            Assert.Equal(new Uri("http://127.0.0.1:5000/ingest/event"), o.Url);
            Assert.Equal(32, o.Connections);
            Assert.Equal(4, o.Pipeline);
            Assert.Equal(1500.5, o.Rate);
            Assert.Equal(TimeSpan.FromMinutes(2), o.Duration);
            Assert.Equal(TimeSpan.FromMilliseconds(500), o.Warmup);
            Assert.Equal(1_000, o.MaxRequests);
            Assert.Equal(TimeSpan.FromSeconds(1.5), o.Timeout);
            Assert.Equal([body, body], o.BodyFiles);
            Assert.Equal("PUT", o.EffectiveMethod);
            Assert.Equal(["X-A: 1", "X-B: two"], o.Headers);
            Assert.Equal("application/x-ndjson", o.ContentType);
            Assert.Equal(3, o.Threads);
            Assert.Equal("out.json", command.JsonPath);
            Assert.True(command.Crank);
        }
        finally
        {
            File.Delete(body);
        }
    }

    [Fact]
    public void AWarmUpLimitMakesTheWarmUpAdaptiveInClosedLoopOnly()
    {
        var command = CommandLine.Parse(["--url", "http://127.0.0.1:5000/", "--warmup", "1s", "--warmup-limit", "30s"]);
        Assert.Empty(command.Errors);
        Assert.Equal(TimeSpan.FromSeconds(30), command.Options.WarmupLimit);
        Assert.Null(CommandLine.Parse(["--url", "http://127.0.0.1:5000/"]).Options.WarmupLimit);

        // Shorter than the first phase: no extension, not an error (a Crank scenario may raise --warmup above the limit).
        Assert.Empty(CommandLine.Parse(["--url", "http://127.0.0.1:5000/", "--warmup", "5s", "--warmup-limit", "0s"]).Errors);
        var openLoop = Assert.Single(CommandLine.Parse(["--url", "http://127.0.0.1:5000/", "--rate", "100", "--warmup-limit", "10s"]).Errors);
        Assert.StartsWith("--warmup-limit must be unset in open loop", openLoop, StringComparison.Ordinal);
    }

    [Fact]
    public void DefaultsAreClosedLoopGetWithTheProcessorCountAsThreads()
    {
        var command = CommandLine.Parse(["http://127.0.0.1:5000/plaintext"]);

        Assert.Empty(command.Errors);
        Assert.Null(command.Options.Rate);
        Assert.Equal("GET", command.Options.EffectiveMethod);
        Assert.Equal(Environment.ProcessorCount, command.Options.Threads);
        Assert.Equal(TimeSpan.FromSeconds(10), command.Options.Duration);
    }

    [Theory]
    [InlineData("--connections", "0")]
    [InlineData("--connections", "many")]
    [InlineData("--pipeline", "0")]
    [InlineData("--rate", "-5")]
    [InlineData("--rate", "fast")]
    [InlineData("--duration", "0s")]
    [InlineData("--duration", "ten seconds")]
    [InlineData("--warmup", "-1s")]
    [InlineData("--warmup-limit", "soon")]
    [InlineData("--requests", "0")]
    [InlineData("--timeout", "0")]
    [InlineData("--threads", "0")]
    [InlineData("--body", "/no/such/file.json")]
    [InlineData("--method", "GET /")]
    [InlineData("-H", "no colon")]
    [InlineData("-H", "Content-Length: 5")]
    public void ABadValueIsReportedWithTheFlagThatCarriedIt(string flag, string value)
    {
        var command = CommandLine.Parse(["--url", "http://127.0.0.1:5000/", flag, value]);

        var error = Assert.Single(command.Errors);
        Assert.StartsWith(flag, error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("https://127.0.0.1:5001/")]
    [InlineData("not a url")]
    public void AnUnusableUrlIsReportedAsUrl(string url)
    {
        var command = CommandLine.Parse(["--url", url]);

        Assert.Contains(command.Errors, e => e.StartsWith("--url", StringComparison.Ordinal));
    }

    [Fact]
    public void AMissingUrlIsReportedAsUrl()
    {
        var command = CommandLine.Parse([]);

        Assert.Equal("--url is required (LoadOptions.Url).", Assert.Single(command.Errors));
    }

    [Fact]
    public void AnUnknownFlagIsRefusedBeforeTheOptionsAreChecked()
    {
        var command = CommandLine.Parse(["--frobnicate"]);

        Assert.Equal("Unrecognized command or argument '--frobnicate'.", Assert.Single(command.Errors));
    }

    [Theory]
    [InlineData("250us", 0.00025)]
    [InlineData("500ms", 0.5)]
    [InlineData("1.5s", 1.5)]
    [InlineData("10", 10)]
    [InlineData("2m", 120)]
    [InlineData("1h", 3600)]
    public void DurationsTakeAUnit(string text, double seconds)
    {
        Assert.True(CommandLine.TryParseDuration(text, out var value));
        Assert.Equal(seconds, value.TotalSeconds, 9);
    }

    [Fact]
    public async Task TheExitCodeIsTwoAndTheErrorNamesTheFlag()
    {
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await LoadGenCommand.RunAsync(["--url", "http://127.0.0.1:1/", "--connections", "-3"], output, error);

        Assert.Equal(LoadGenCommand.UsageError, code);
        Assert.Contains("--connections", error.ToString(), StringComparison.Ordinal);
    }
}
