using System.CommandLine;
using System.CommandLine.Invocation;
using Ingest.Lab.Processes;
using static Ingest.Lab.Cli.OptionKinds;

namespace Ingest.Lab.Cli;

/// <summary>
/// The lab's command line on System.CommandLine: a root whose own action is <c>run</c> (so the lab runs the default
/// set with no argument, and <c>--set classic</c> needs no <c>run</c> before it), and one subcommand per thing the lab
/// does. The help is generated, with every option's default; an unknown or misspelled option or command is refused with
/// the parser's suggestion and <see cref="UsageError"/>.
/// </summary>
internal static class LabCommandLine
{
    /// <summary>Exit code: a command line the lab cannot run.</summary>
    public const int UsageError = 2;

    /// <summary>No response files: a value starting with '@' is a value.</summary>
    public static readonly ParserConfiguration Parser = new() { ResponseFileTokenReplacer = null };

    /// <summary>Parses <paramref name="args"/> and runs what they ask for. Exceptions are left to the caller
    /// (Program.cs turns a cancellation into 130), and so are Ctrl+C and SIGTERM: they cancel
    /// <paramref name="cancellationToken"/>.</summary>
    public static async Task<int> InvokeAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        var result = Build().Parse(args, Parser);
        if (result.Action is ParseErrorAction parseError)
        {
            // The errors and the suggestions only, all on stderr; the help is one --help away.
            parseError.ShowHelp = false;
            result.Invoke(new InvocationConfiguration { Output = error, Error = error, ProcessTerminationTimeout = null });
            return Refuse(error, []);
        }

        return await result.InvokeAsync(
            new InvocationConfiguration { Output = output, Error = error, EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null },
            cancellationToken);
    }

    public static RootCommand Build()
    {
        var run = new RunSymbols();
        var root = (RootCommand)run.AddTo(new RootCommand(
            "The end-to-end lab: publishes and starts the services as processes of their own, drives them with the load generator, " +
            "checks that nothing was lost and writes the report. Without a command it runs: the options below are run's. " +
            "Seconds are given as 5 or 5s."));
        Func<ParseResult, CancellationToken, Task<int>> measure = (result, cancellationToken) => WithOptions(run.Bind(result), result, options =>
            new RunCommand(RepositoryLayout.Find(), Output(result)).RunAsync(options, Reproduce(result), cancellationToken));
        root.SetAction(measure);

        var runCommand = run.AddTo(new Command("run", "Measure the scenarios of the chosen sets and write results/<timestamp> (the default command)."));
        runCommand.SetAction(measure);

        var list = new Command("list", "The scenario sets, each with its plan, and their scenarios.");
        list.SetAction(result => LabActions.List(Output(result)));

        var runA = new Argument<string>("runA") { Description = "A run's folder or its results.json: the baseline." };
        var runB = new Argument<string>("runB") { Description = "Another run's folder or results.json." };
        var compare = new Command("compare", "Ratios B/A per scenario, marked where beyond the noise.") { runA, runB };
        compare.SetAction(result => LabActions.Compare(Output(result), result.GetRequiredValue(runA), result.GetRequiredValue(runB)));

        var reportRun = new Argument<string>("run") { Description = "A run's folder or its results.json." };
        var report = new Command("report", "Rewrite summary.md and report.html from a run's results.json.") { reportRun };
        report.SetAction(result => LabActions.Report(Output(result), result.GetRequiredValue(reportRun)));

        var soakSymbols = new SoakSymbols();
        var soak = soakSymbols.AddTo(new Command("soak",
            "A long bounded run: memory, threads, handles, errors, loss, latency percentiles and a per-second probe; then the " +
            "same soak of each Go stack at the same rate."));
        soak.SetAction((result, cancellationToken) => WithOptions(soakSymbols.Bind(result), result, options =>
            new SoakCommand(RepositoryLayout.Find(), Output(result)).RunAsync(options, cancellationToken)));

        var faultsSymbols = new FaultsSymbols();
        var faults = faultsSymbols.AddTo(new Command("faults",
            "Network faults between the front-end and the back-end (latency, loss, reordering, duplication, a partition, a black " +
            "hole, a bandwidth cap), each under a steady load, on network namespaces it makes and removes (root): what was lost, " +
            "duplicated, answered, and how soon service was back."));
        faults.SetAction((result, cancellationToken) => WithOptions(faultsSymbols.Bind(result), result, options =>
            new FaultsCommand(RepositoryLayout.Find(), Output(result), result.InvocationConfiguration.Error).RunAsync(options, Reproduce(result), cancellationToken)));

        var check = Switch("--check", "Only validate crank/ingest.benchmarks.yml, without regenerating it.");
        var crank = new Command("crank", "Regenerate crank/ingest.benchmarks.yml from the catalogue and validate it.") { check };
        crank.SetAction(result => LabActions.Crank(Output(result), result.InvocationConfiguration.Error, result.GetValue(check)));

        var training = SecondsOption("--training", WithDefault("How long each scenario's JIT twin trains.", Seconds(new LabOptions().Training)), allowZero: false);
        var train = new Command("train",
            "The profiles the services ship for their Native AOT builds (src/*/aot-profile): the aot set's profile-guided " +
            "scenarios trained on the JIT, as their rows are.") { training };
        train.SetAction((result, cancellationToken) =>
            new TrainCommand(RepositoryLayout.Find(), Output(result)).RunAsync(result.GetValue(training) ?? new LabOptions().Training, cancellationToken));

        var folder = new Argument<string>("folder") { Description = "Where they are written; created if missing." };
        var payloads = new Command("payloads", "Write the load payloads: classic.json, batch100.json, batch100.ndjson.") { folder };
        payloads.SetAction(result => LabActions.Payloads(result.GetRequiredValue(folder)));

        var demo = new Command("demo", "The flow at a glance: a burst of the classic payload, and what the back-end persisted.");
        demo.SetAction((result, cancellationToken) => new Demo(RepositoryLayout.Find(), Output(result)).RunAsync(cancellationToken));

        var headlineRun = new Argument<string?>("run") { Description = "A headline run's folder: its summary becomes docs/headline.json first.", Arity = ArgumentArity.ZeroOrOne };
        var headlineCheck = Switch("--check", "Write nothing: fail when a document's headline is not what docs/headline.json renders.");
        var headline = new Command("headline", "Render the README's and results.md's headline tables from docs/headline.json (or from a run, which replaces it).") { headlineRun, headlineCheck };
        headline.SetAction(result => new HeadlineCommand(RepositoryLayout.Find(), Output(result)).Run(result.GetValue(headlineRun), result.GetValue(headlineCheck)));

        foreach (var command in new[] { runCommand, list, compare, report, soak, faults, crank, train, payloads, demo, headline })
        {
            root.Subcommands.Add(command);
        }

        return root;
    }

    /// <summary>Options made from a command line: the parser's errors if it had any (a value that did not parse has
    /// nothing to bind), else the options <paramref name="bind"/> makes, unless <paramref name="problems"/> finds
    /// something wrong with them as a whole.</summary>
    public static (T? Options, IReadOnlyList<string> Errors) Bind<T>(ParseResult result, Func<ParseResult, T> bind, Func<T, IReadOnlyList<string>> problems)
        where T : class
    {
        if (result.Errors.Count > 0)
        {
            return (null, [.. result.Errors.Select(e => e.Message)]);
        }

        var options = bind(result);
        var found = problems(options);
        return (found.Count == 0 ? options : null, found);
    }

    /// <summary>Runs <paramref name="command"/> with the options, or refuses what is wrong with them.</summary>
    private static Task<int> WithOptions<T>((T? Options, IReadOnlyList<string> Errors) bound, ParseResult result, Func<T, Task<int>> command)
        where T : class =>
        bound.Options is { } options ? command(options) : Task.FromResult(Refuse(result, bound.Errors));

    private static TextWriter Output(ParseResult result) => result.InvocationConfiguration.Output;

    /// <summary>The command that runs this again from the repository's root, as the README gives it.</summary>
    private static string Reproduce(ParseResult result) =>
        "dotnet run -c Release --project benchmarks/Ingest.Lab" + (result.Tokens.Count == 0 ? "" : " -- " + string.Join(" ", result.Tokens.Select(t => t.Value)));

    private static int Refuse(ParseResult result, IReadOnlyList<string> problems) => Refuse(result.InvocationConfiguration.Error, problems);

    private static int Refuse(TextWriter error, IReadOnlyList<string> problems)
    {
        foreach (var problem in problems)
        {
            error.WriteLine(problem);
        }

        error.WriteLine("Run with --help for usage.");
        return UsageError;
    }
}
