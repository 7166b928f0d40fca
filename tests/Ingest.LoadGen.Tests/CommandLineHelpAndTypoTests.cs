using System.CommandLine.Help;
using Ingest.LoadGen.Cli;

namespace Ingest.LoadGen.Tests;

/// <summary>The load generator's command line on System.CommandLine: the help it generates, what it says about a
/// misspelled option, and the flags the lab and Crank drive it with. Nothing here starts a run.</summary>
public sealed class CommandLineHelpAndTypoTests
{
    [Fact]
    public async Task TheHelpListsEveryOptionWithItsDefault()
    {
        var (code, output, error) = await RunAsync("--help");

        Assert.Equal(LoadGenCommand.Success, code);
        Assert.Empty(error);
        foreach (var option in new CommandLineSymbols().Root.Options.Where(o => o is not HelpOption and not System.CommandLine.VersionOption))
        {
            Assert.Contains(option.Name, output, StringComparison.Ordinal);
            Assert.Contains("[default: ", option.Description, StringComparison.Ordinal);
        }

        foreach (var line in new[] { "Keep-alive connections. [default: 64]", "[default: 10s]", "[default: 2s]", "[default: closed loop]", "[default: 10000000]", "[default: application/json]" })
        {
            Assert.Contains(line, output, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task AMisspelledOptionFailsWithTwoAndSuggestsTheRightOne()
    {
        var (code, output, error) = await RunAsync("--url", "http://127.0.0.1:1/", "--conections", "8");

        Assert.Equal(LoadGenCommand.UsageError, code);
        Assert.Empty(output);
        Assert.Contains("'--conections' was not matched. Did you mean one of the following?" + Environment.NewLine + "--connections", error, StringComparison.Ordinal);
        Assert.Contains("Run with --help for usage.", error, StringComparison.Ordinal);
    }

    [Fact]
    public void AMisspelledOptionBeforeAPositionalUrlIsNotTakenForTheUrl()
    {
        var command = CommandLine.Parse(["--warmpu", "1s", "http://127.0.0.1:5000/"]);

        Assert.Equal(["Unrecognized command or argument '--warmpu'.", "Unrecognized command or argument '1s'."], command.Errors);
    }

    [Fact]
    public void APositionalUrlMayStandAnywhereButNotAsAnOptionsValue()
    {
        var command = CommandLine.Parse(["-c", "8", "http://127.0.0.1:5000/plaintext", "--json", "http://not-a-target/"]);

        Assert.Empty(command.Errors);
        Assert.Equal(new Uri("http://127.0.0.1:5000/plaintext"), command.Options.Url);
        Assert.Equal("http://not-a-target/", command.JsonPath);
        Assert.Equal(8, command.Options.Connections);
    }

    [Fact]
    public void ASwitchTakesNoValueAndAValueOptionIsGivenOnce()
    {
        Assert.Contains("Unrecognized command or argument 'true'.", CommandLine.Parse(["http://127.0.0.1:5000/", "--crank", "true"]).Errors);
        Assert.Contains("Option '-c' expects a single argument but 2 were provided.", CommandLine.Parse(["http://127.0.0.1:5000/", "-c", "1", "-c", "2"]).Errors);
    }

    [Fact]
    public void TheFlagsTheLabPassesParseAsTheyDid()
    {
        // benchmarks/Ingest.Lab/Running/LoadGenDriver.cs: a measured phase, open loop, pinned to one CPU.
        var (command, body) = ParseWithABodyFile(body =>
        [
            "--url", "http://127.0.0.1:5000/ingest/event", "-c", "50", "--pipeline", "1", "-d", "3s", "--warmup", "0", "--timeout", "10s",
            "--json", "phase.json", "--body", body, "--content-type", "application/json", "--requests", "500", "--rate", "1234.5", "-t", "1",
        ]);

        Assert.Empty(command.Errors);
        var o = command.Options;
        Assert.Equal((50, 1, TimeSpan.FromSeconds(3), TimeSpan.Zero, TimeSpan.FromSeconds(10)), (o.Connections, o.Pipeline, o.Duration, o.Warmup, o.Timeout));
        Assert.Equal(("phase.json", "application/json", 500L, 1234.5, 1), (command.JsonPath, o.ContentType, o.MaxRequests, o.Rate, o.Threads));
        Assert.Equal([body], o.BodyFiles);
    }

    [Fact]
    public void TheFlagsCrankPassesParseAsTheyDid()
    {
        // crank/ingest.benchmarks.yml, job ingest-loadgen, with a payload and a back-end to check.
        var (command, _) = ParseWithABodyFile(body =>
        [
            "--url", "http://10.0.0.1:5000/ingest/event", "-c", "256", "--pipeline", "1", "--warmup", "3s", "--warmup-limit", "30s", "-d", "15s",
            "--body", body, "--content-type", "application/json", "--loss-check", "http://10.0.0.2:5001", "--events-per-request", "100", "--crank",
        ]);

        Assert.Empty(command.Errors);
        var o = command.Options;
        Assert.Equal((256, TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(30), TimeSpan.FromSeconds(15)), (o.Connections, o.Warmup, o.WarmupLimit, o.Duration));
        Assert.Equal((new Uri("http://10.0.0.2:5001"), 100, true), (command.LossCheck, command.EventsPerRequest, command.Crank));
    }

    [Fact]
    public void DefaultsComeFromLoadOptions()
    {
        var command = CommandLine.Parse(["http://127.0.0.1:5000/"]);
        var defaults = new LoadOptions();

        var o = command.Options;
        Assert.Equal((defaults.Connections, defaults.Pipeline, defaults.Duration, defaults.Warmup, defaults.MaxRequests, defaults.Timeout),
            (o.Connections, o.Pipeline, o.Duration, o.Warmup, o.MaxRequests, o.Timeout));
        Assert.Equal((null, null, null, null), (o.WarmupLimit, o.Method, o.ContentType, command.LossCheck));
        Assert.Equal((false, (string?)null, ParsedCommand.DefaultEventsPerRequest), (command.Crank, command.JsonPath, command.EventsPerRequest));
    }

    /// <summary>Parses the command line <paramref name="args"/> makes around a body file, which exists while it is
    /// parsed (the options' check looks for it).</summary>
    private static (ParsedCommand Command, string Body) ParseWithABodyFile(Func<string, string[]> args)
    {
        var body = Path.GetTempFileName();
        try
        {
            return (CommandLine.Parse(args(body)), body);
        }
        finally
        {
            File.Delete(body);
        }
    }

    private static async Task<(int Code, string Output, string Error)> RunAsync(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var code = await LoadGenCommand.RunAsync(args, output, error);
        return (code, output.ToString(), error.ToString());
    }
}
