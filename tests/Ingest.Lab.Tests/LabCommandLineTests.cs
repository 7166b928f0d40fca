using System.CommandLine;
using System.CommandLine.Help;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Cli;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>The lab's command line (benchmarks/Ingest.Lab/Cli), in process: parsing, defaults, help and refusals.
/// Only command lines the parser refuses, and <c>--help</c>, are invoked, so no service is ever started.</summary>
public sealed class LabCommandLineTests
{
    [Fact]
    public void EveryRunOptionParsesToItsTypedValue()
    {
        var (options, errors) = LabOptions.Parse(
        [
            "--sets", "classic,gc", "--filter", "go-,aspnet", "--repeats", "5", "--rounds", "2", "--warmup", "1.5s", "--warmup-limit", "20",
            "--duration", "4s", "--requests", "1000", "--training", "7", "--pin", "--wrk", "--prometheus", "--no-install",
            "--limit", "memory=256M,cpus=0.5", "--output", "/tmp/lab-out",
            "--front-end", "Forwarding:TimeoutMilliseconds=30000", "--front-end", "Forwarding:RetryAttempts=1", "--front-end", "Forwarding:RetryAttempts=2",
        ]);

        Assert.Empty(errors);
        var o = options!;
        Assert.Equal(["classic", "gc"], o.Sets);
        Assert.Equal("go-,aspnet", o.Filter);
        Assert.Equal((5, 2), (o.Repeats, o.Rounds));
        Assert.Equal((TimeSpan.FromSeconds(1.5), TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(4), TimeSpan.FromSeconds(7)), (o.Warmup, o.WarmupLimit, o.Duration, o.Training));
        Assert.Equal(1000L, o.Requests);
        Assert.Equal((true, true, true, false), (o.Pin, o.Wrk, o.Prometheus, o.Install));
        Assert.Equal(new ServiceLimits(256L * 1024 * 1024, 0.5), o.Limits);
        Assert.Equal("/tmp/lab-out", o.Output);
        Assert.False(o.Smoke || o.FitMemory);
        Assert.Equal(new Dictionary<string, string> { ["Forwarding:TimeoutMilliseconds"] = "30000", ["Forwarding:RetryAttempts"] = "2" }, o.FrontEndSettings);
    }

    [Theory]
    [InlineData("5")]
    [InlineData("5s")]
    [InlineData("5.0")]
    public void SecondsAreANumberWithOrWithoutAnS(string text) =>
        Assert.Equal(TimeSpan.FromSeconds(5), LabOptions.Parse(["--duration", text]).Options!.Duration);

    [Fact]
    public void WithoutFlagsARunIsTheDefaultSetsPlan()
    {
        var (options, errors) = LabOptions.Parse([]);
        var plan = LabOptions.PlanFor([ScenarioCatalogue.DefaultSet], smoke: false);

        Assert.Empty(errors);
        var o = options!;
        Assert.Equal([ScenarioCatalogue.DefaultSet], o.Sets);
        Assert.Equal((plan.Repeats, plan.Rounds, plan.Warmup, plan.WarmupLimit, plan.Duration), (o.Repeats, o.Rounds, o.Warmup, o.WarmupLimit, o.Duration));
        var headline = ScenarioCatalogue.HeadlinePlan;
        Assert.Equal((headline.Repeats, headline.Rounds, headline.Warmup, headline.WarmupLimit, headline.Duration), (o.Repeats, o.Rounds, o.Warmup, o.WarmupLimit, o.Duration));
        Assert.Equal((true, headline.Rewarm), (o.KeepServices, o.Rewarm));

        // Any other set: the standard plan, every scenario started afresh.
        var classic = LabOptions.Parse(["--set", "classic"]).Options!;
        Assert.Equal((3, 1, TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(30), TimeSpan.FromSeconds(3), false), (classic.Repeats, classic.Rounds, classic.Warmup, classic.WarmupLimit, classic.Duration, classic.KeepServices));
        Assert.Equal(((long?)null, TimeSpan.FromSeconds(20), true), (o.Requests, o.Training, o.Install));
        Assert.Equal((null, null, false, false, false, false), (o.Filter, o.Output, o.Pin, o.Wrk, o.Prometheus, o.FitMemory));
        Assert.True(o.Limits.IsNone);
        Assert.Empty(o.FrontEndSettings);
    }

    [Fact]
    public void FrontEndSettingsGoOnEveryDotNetFrontEndAndLeaveThePeersAsTheyAre()
    {
        var options = LabOptions.Parse(["--front-end", "Forwarding:TimeoutMilliseconds=60000"]).Options!;
        var dotnet = ScenarioCatalogue.InSet("smoke")[0];
        var peer = ScenarioCatalogue.Sets.SelectMany(ScenarioCatalogue.InSet).First(s => s.FrontEnd.Implementation != Implementation.DotNet);

        var configured = options.Configure(dotnet);

        Assert.Equal("60000", configured.FrontEnd.Settings["Forwarding:TimeoutMilliseconds"]);
        Assert.Contains("Forwarding:TimeoutMilliseconds=60000", configured.FrontEnd.Describe(), StringComparison.Ordinal);
        Assert.All(dotnet.FrontEnd.Settings, s => Assert.Equal(s.Value, configured.FrontEnd.Settings[s.Key]));
        Assert.Same(peer, options.Configure(peer));

        // The load waits past the front-end's own deadline, so a slow forward ends as its 504, not as the load giving up.
        Assert.Equal((Scenario.DefaultResponseTimeout, TimeSpan.FromSeconds(65)), (dotnet.ResponseTimeout, configured.ResponseTimeout));
        Assert.Equal(Scenario.DefaultResponseTimeout, options.Configure(peer).ResponseTimeout);
        var phase = new LoadPhase(new Uri("http://127.0.0.1:1"), configured.Load, TimeSpan.FromSeconds(1), null, "p", "r", null, "f", configured.ResponseTimeout);
        Assert.Equal(("65s", "10s"), (phase.TimeoutArgument, (phase with { ResponseTimeout = null }).TimeoutArgument));
    }

    [Fact]
    public void AFlagThatWasGivenBeatsTheSetsPlanAndOneThatWasNotKeepsIt()
    {
        var plan = LabOptions.PlanFor(["gc"], smoke: false);

        var given = LabOptions.From(["gc"], new LabFlags { Repeats = 7, Warmup = TimeSpan.Zero });

        Assert.Equal((7, TimeSpan.Zero), (given.Repeats, given.Warmup));
        Assert.Equal((plan.Rounds, plan.WarmupLimit, plan.Duration), (given.Rounds, given.WarmupLimit, given.Duration));
        Assert.Equal(["gc"], given.Sets);

        var smoke = LabOptions.From(["gc"], new LabFlags { Smoke = true, Duration = TimeSpan.FromSeconds(2) });
        Assert.Equal((true, 1, TimeSpan.FromSeconds(2), LabOptions.SmokeDefaults.Requests), (smoke.Smoke, smoke.Repeats, smoke.Duration, smoke.Requests));
    }

    [Theory]
    [InlineData(new[] { "--rounds", "0" }, "--rounds expects a whole number above 0; got '0'.")]
    [InlineData(new[] { "--repeats", "two" }, "--repeats expects a whole number above 0; got 'two'.")]
    [InlineData(new[] { "--requests", "-5" }, "--requests expects a whole number above 0; got '-5'.")]
    [InlineData(new[] { "--warmup", "-1" }, "--warmup expects seconds (0 or more), at most 3600, e.g. 5 or 5s; got '-1'.")]
    [InlineData(new[] { "--duration", "0s" }, "--duration expects seconds above 0, at most 3600, e.g. 5 or 5s; got '0s'.")]
    [InlineData(new[] { "--training", "3601" }, "--training expects seconds above 0, at most 3600, e.g. 5 or 5s; got '3601'.")]
    [InlineData(new[] { "--limit", "disk=1G" }, "--limit: 'disk=1G' is not memory=<size with K, M or G, at least 4M> or cpus=<number of cores, e.g. 1 or 0.5>.")]
    [InlineData(new[] { "--rounds", "2", "--fit-memory" }, "--rounds cannot be combined with --fit-memory: the memory search already runs each scenario several times, against its own first measurement.")]
    [InlineData(new[] { "--pin", "true" }, "Unrecognized command or argument 'true'.")]
    [InlineData(new[] { "--duration" }, "Required argument missing for option: '--duration'.")]
    [InlineData(new[] { "--front-end", "Forwarding:TimeoutMilliseconds" }, "run: --front-end takes Key=Value, e.g. Forwarding:TimeoutMilliseconds=30000.")]
    public void AnInvalidValueIsRefusedWithItsMessage(string[] args, string message) => AssertRefused(LabOptions.Parse(args), message);

    [Fact]
    public void AnUnknownSetIsRefusedNamingTheKnownOnes()
    {
        var error = Assert.Single(LabOptions.Parse(["--set", "classic,nope"]).Errors);

        Assert.StartsWith($"--set: unknown scenario set 'nope'. Known sets: {ScenarioCatalogue.HeadlineSet}, classic, ", error, StringComparison.Ordinal);
        Assert.EndsWith($", or {ScenarioCatalogue.AllSets} (see 'list').", error, StringComparison.Ordinal);
        Assert.Equal(ScenarioCatalogue.Sets, LabOptions.Parse(["--set", "all"]).Options!.Sets);
    }

    [Theory]
    [InlineData(new[] { "--rounsd", "3" }, "--rounsd", "--rounds")]
    [InlineData(new[] { "run", "--warmup-limt", "3" }, "--warmup-limt", "--warmup-limit")]
    [InlineData(new[] { "lsit" }, "lsit", "list")]
    [InlineData(new[] { "soak", "--minuts", "1" }, "--minuts", "--minutes")]
    [InlineData(new[] { "train", "--trainnig", "5" }, "--trainnig", "--training")]
    public async Task AMisspelledOptionOrCommandFailsWithTwoAndSuggestsTheRightOne(string[] args, string typo, string meant)
    {
        var (code, output, error) = await InvokeAsync(args);

        Assert.Equal(LabCommandLine.UsageError, code);
        Assert.Empty(output);
        Assert.Contains($"'{typo}' was not matched. Did you mean one of the following?{Environment.NewLine}{meant}", error, StringComparison.Ordinal);
        Assert.Contains($"Unrecognized command or argument '{typo}'.", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheHelpListsEveryRunOptionWithItsDefaultAndEveryCommand()
    {
        var (code, output, error) = await InvokeAsync("--help");

        Assert.Equal(0, code);
        Assert.Empty(error);
        AssertEveryOptionWithItsDefault(LabCommandLine.Build(), output);
        foreach (var command in new[] { "run", "list", "compare <runA> <runB>", "report <run>", "soak", "faults", "crank", "train", "payloads <folder>", "demo", "headline <run>" })
        {
            Assert.Contains("  " + command + " ", output, StringComparison.Ordinal);
        }

        // What had drifted in the hand-written usage: --rounds was missing, and the warm-up's default was given as 3.
        Assert.Contains("--rounds <N>", output, StringComparison.Ordinal);
        Assert.Contains("[default: the set's plan (see 'list'): 3s for headline, 2s for the others; 0s with --smoke]", output, StringComparison.Ordinal);
        Assert.Contains("[default: the set's plan (see 'list'): 2 for headline, 3 for the others; 1 with --smoke]", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("run")]
    [InlineData("soak")]
    [InlineData("faults")]
    [InlineData("train")]
    [InlineData("crank")]
    public async Task EachCommandsHelpListsItsOptionsWithTheirDefaults(string name)
    {
        var (code, output, _) = await InvokeAsync(name, "--help");

        Assert.Equal(0, code);
        AssertEveryOptionWithItsDefault(LabCommandLine.Build().Subcommands.Single(c => c.Name == name), output);
    }

    [Fact]
    public void WithoutACommandTheLabRunsAndTheWordRunChangesNothing()
    {
        var root = LabCommandLine.Build();

        var bare = root.Parse(["--set", "classic", "--repeat", "2"], LabCommandLine.Parser);
        var run = root.Parse(["run", "--set", "classic", "--repeat", "2"], LabCommandLine.Parser);

        Assert.Empty(bare.Errors);
        Assert.Same(root, bare.CommandResult.Command);
        Assert.Equal("run", run.CommandResult.Command.Name);
        Assert.NotNull(root.Parse([], LabCommandLine.Parser).Action);
        Assert.Equal(2, bare.GetValue<int?>("--repeat"));
        Assert.Equal(2, run.GetValue<int?>("--repeat"));
    }

    [Fact]
    public void SoakOptionsAreBoundFromTheCommandLineWithTheirDefaults()
    {
        var defaults = SoakOptions.Parse([]).Options!;
        Assert.Equal((10.0, 70.0, false, false, false), (defaults.Minutes, defaults.RatePercent, defaults.Lean, defaults.Aot, defaults.Trimmed));
        Assert.Equal(["go-nethttp", "go-fasthttp", "rust-hyper"], defaults.Against);

        var (options, errors) = SoakOptions.Parse(["--minutes", "0.5", "--rate-percent", "50", "--against", "none", "--lean", "--trimmed"]);

        Assert.Empty(errors);
        Assert.Equal((0.5, 50.0, true, false, true), (options!.Minutes, options.RatePercent, options.Lean, options.Aot, options.Trimmed));
        Assert.Empty(options.Against);
    }

    [Theory]
    [InlineData(new[] { "--minutes", "0" }, "soak: --minutes takes a number above 0.")]
    [InlineData(new[] { "--rate-percent", "101" }, "soak: --rate-percent takes a percentage above 0, at most 100.")]
    [InlineData(new[] { "--against", "go-gin" }, "soak: --against takes 'none' or a comma-separated list of go-nethttp, go-fasthttp, rust-hyper.")]
    [InlineData(new[] { "--aot", "--trimmed" }, "soak: --aot and --trimmed are two builds; give one.")]
    [InlineData(new[] { "--lena" }, "Unrecognized command or argument '--lena'.")]
    public void ASoakThatCannotRunIsRefused(string[] args, string message) => AssertRefused(SoakOptions.Parse(args), message);

    [Fact]
    public async Task ASoakOfTwoBuildsIsRefusedWithTwoBeforeAnythingStarts()
    {
        var (code, output, error) = await InvokeAsync("soak", "--aot", "--trimmed");

        Assert.Equal(LabCommandLine.UsageError, code);
        Assert.Empty(output);
        Assert.Contains("soak: --aot and --trimmed are two builds; give one.", error, StringComparison.Ordinal);
    }

    [Fact]
    public void FaultsOptionsAreBoundFromTheCommandLineWithTheirDefaults()
    {
        var defaults = ParseFaults([]).Options!;
        Assert.Equal((TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(3), 200.0, 100, 256), (defaults.FaultDuration, defaults.Before, defaults.Rate, defaults.Connections, defaults.BandwidthKilobits));
        Assert.Empty(defaults.Only);
        Assert.Null(defaults.Recovery);

        var (options, errors) = ParseFaults(["--only", "loss-1,partition", "--seconds", "4", "--recovery", "6s", "--rate", "50",
            "--front-end", "Forwarding:BreakerBreakSeconds=2", "--front-end", "Forwarding:AttemptTimeoutMilliseconds=500"]);

        Assert.Empty(errors);
        Assert.Equal(["loss-1", "partition"], options!.Only);
        Assert.Equal((TimeSpan.FromSeconds(4), TimeSpan.FromSeconds(6), 50.0), (options.FaultDuration, options.Recovery, options.Rate));
        Assert.Equal((5_000, 500, 2), (options.Forwarding().TimeoutMilliseconds, options.Forwarding().AttemptTimeoutMilliseconds, options.Forwarding().BreakerBreakSeconds));
    }

    [Theory]
    [InlineData(new[] { "--only", "earthquake" }, "faults: --only: no fault 'earthquake'; the faults are latency, loss-1, loss-5, reorder, duplicate, partition, black-hole, bandwidth.")]
    [InlineData(new[] { "--front-end", "Forwarding:BreakerBreakSeconds" }, "faults: --front-end takes Key=Value, e.g. Forwarding:BreakerBreakSeconds=2.")]
    [InlineData(new[] { "--front-end", "Forwarding:BreakerBreakSeconds=soon" }, "faults: --front-end Forwarding:BreakerBreakSeconds takes a whole number; got 'soon'.")]
    [InlineData(new[] { "--rate", "0" }, "faults: --rate takes requests a second above 0, at most 100000.")]
    public void FaultsThatCannotRunAreRefused(string[] args, string message) => AssertRefused(ParseFaults(args), message);

    private static (FaultsOptions? Options, IReadOnlyList<string> Errors) ParseFaults(string[] args)
    {
        var symbols = new FaultsSymbols();
        return symbols.Bind(symbols.AddTo(new Command("faults")).Parse(args, LabCommandLine.Parser));
    }

    /// <summary>No options, and <paramref name="message"/> alone says why.</summary>
    private static void AssertRefused<T>((T? Options, IReadOnlyList<string> Errors) parsed, string message)
        where T : class
    {
        Assert.Null(parsed.Options);
        Assert.Equal(message, Assert.Single(parsed.Errors));
    }

    /// <summary>Every option of <paramref name="command"/> is in its help, and says its default.</summary>
    private static void AssertEveryOptionWithItsDefault(Command command, string help)
    {
        var options = command.Options.Where(o => o is not HelpOption and not VersionOption).ToList();
        Assert.NotEmpty(options);
        foreach (var option in options)
        {
            Assert.Contains(option.Name, help, StringComparison.Ordinal);
            Assert.Contains(option.Description!, help, StringComparison.Ordinal);
            Assert.Contains("[default: ", option.Description, StringComparison.Ordinal);
        }
    }

    private static async Task<(int Code, string Output, string Error)> InvokeAsync(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var code = await LabCommandLine.InvokeAsync(args, output, error, CancellationToken.None);
        return (code, output.ToString(), error.ToString());
    }
}
