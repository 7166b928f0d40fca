using Ingest.Lab;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Results;

using var stop = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    // First Ctrl+C: stop cleanly (every started process is stopped on the way out); a second one kills the lab.
    e.Cancel = !stop.IsCancellationRequested;
    stop.Cancel();
};

// SIGTERM (a CI timeout, `kill`): the same clean stop, so no service the lab started outlives it; a second one ends it.
using var terminate = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGTERM, context =>
{
    context.Cancel = !stop.IsCancellationRequested;
    stop.Cancel();
});

var layout = RepositoryLayout.Find();
var command = args.Length > 0 && !args[0].StartsWith('-') ? args[0] : "run";
var rest = args.Length > 0 && !args[0].StartsWith('-') ? args[1..] : args;
try
{
    switch (command)
    {
        case "run":
            var (options, errors) = LabOptions.Parse(rest);
            if (options is null)
            {
                return Usage(errors);
            }

            return await new RunCommand(layout, Console.Out).RunAsync(options, "Ingest.Lab " + string.Join(" ", args), stop.Token);
        case "list":
            foreach (var set in ScenarioCatalogue.Sets)
            {
                Console.WriteLine(set + (set == ScenarioCatalogue.DefaultSet ? " (default)" : ""));
                foreach (var scenario in ScenarioCatalogue.InSet(set))
                {
                    Console.WriteLine($"  {scenario.Name,-36} {scenario.Title}");
                }
            }

            return 0;
        case "compare" when rest.Length == 2:
            Console.Write(Comparer.Compare(ResultFiles.Read(rest[0]), ResultFiles.Read(rest[1])));
            return 0;
        case "report" when rest.Length == 1:
            var folder = Directory.Exists(rest[0]) ? rest[0] : Path.GetDirectoryName(Path.GetFullPath(rest[0]))!;
            ResultFiles.WriteAll(folder, ResultFiles.Read(rest[0]));
            Console.WriteLine($"Rewrote {Path.Combine(folder, ResultFiles.SummaryMarkdown)} and {ResultFiles.ReportHtml} from {ResultFiles.ResultsJson}.");
            return 0;
        case "soak":
            if (!TryNumber(rest, "--minutes", 10, out var minutes) || !TryNumber(rest, "--rate-percent", 70, out var percent) || minutes <= 0 || percent is <= 0 or > 100)
            {
                return Usage(["soak: --minutes takes a number above 0, --rate-percent one from 1 to 100."]);
            }

            if (SoakCommand.ParseAgainst(rest) is not { } against)
            {
                return Usage([$"soak: --against takes 'none' or a comma-separated list of {string.Join(", ", SoakCommand.GoStacks.Keys)}."]);
            }

            if (rest.Contains("--aot") && rest.Contains("--trimmed"))
            {
                return Usage(["soak: --aot and --trimmed are two builds; give one."]);
            }

            return await new SoakCommand(layout, Console.Out).RunAsync(minutes, percent, against, rest.Contains("--lean"), rest.Contains("--aot"), rest.Contains("--trimmed"), stop.Token);
        case "crank":
            var config = Path.Combine(layout.Root, "crank", Ingest.Lab.Crank.CrankConfig.FileName);
            if (rest is not ["--check"])
            {
                File.WriteAllText(config, Ingest.Lab.Crank.CrankConfig.Generate(ScenarioCatalogue.All));
                Console.WriteLine($"Wrote {config} ({ScenarioCatalogue.All.Count(Ingest.Lab.Crank.CrankConfig.Covers) + 1} scenarios).");
            }

            var problems = Ingest.Lab.Crank.CrankValidator.Validate(config, Ingest.Lab.Crank.CrankConfig.PublishedFolders);
            foreach (var problem in problems)
            {
                Console.Error.WriteLine(problem);
            }

            Console.WriteLine(problems.Count == 0 ? "Every scenario x profile resolves." : $"{problems.Count} problem(s).");
            return problems.Count == 0 ? 0 : 1;
        case "payloads" when rest.Length == 1:
            Directory.CreateDirectory(rest[0]);
            foreach (var (kind, file) in new[] { (PayloadKind.Classic, "classic.json"), (PayloadKind.Batch100, "batch100.json"), (PayloadKind.Batch100Ndjson, "batch100.ndjson") })
            {
                File.Move(Ingest.Lab.Running.PayloadFiles.Write(Directory.CreateTempSubdirectory().FullName, kind), Path.Combine(rest[0], file), overwrite: true);
            }

            return 0;
        case "train":
            if (!TryNumber(rest, "--training", 20, out var trainingSeconds) || trainingSeconds <= 0)
            {
                return Usage(["train: --training takes a number of seconds above 0."]);
            }

            return await new TrainCommand(layout, Console.Out).RunAsync(TimeSpan.FromSeconds(trainingSeconds), stop.Token);
        case "headline" when rest.Length <= 2:
            var check = rest.Contains("--check");
            var from = rest.FirstOrDefault(a => a != "--check");
            return new HeadlineCommand(layout, Console.Out).Run(from, check);
        case "demo":
            return await new Demo(layout, Console.Out).RunAsync(stop.Token);
        default:
            return Usage([$"Unknown command or arguments: {string.Join(" ", args)}"]);
    }
}
catch (OperationCanceledException) when (stop.IsCancellationRequested)
{
    Console.Error.WriteLine("Stopped: every process the lab started was stopped; the results so far are written.");
    return 130;
}
catch (InvalidOperationException ex)
{
    Console.Error.WriteLine($"lab: {ex.Message}");
    return 1;
}

static bool TryNumber(string[] arguments, string flag, double fallback, out double value)
{
    var at = Array.IndexOf(arguments, flag);
    value = fallback;
    return at < 0 || (at + 1 < arguments.Length && double.TryParse(arguments[at + 1], System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out value));
}

static int Usage(IEnumerable<string> problems)
{
    foreach (var problem in problems)
    {
        Console.Error.WriteLine(problem);
    }

    Console.Error.WriteLine("""
        usage: Ingest.Lab [run] [--set classic[,serializers,...]] [--filter text] [--repeat 3] [--warmup 3] [--warmup-limit 30] [--duration 3] [--requests N]
                              [--pin] [--wrk] [--prometheus] [--no-install] [--output folder] [--smoke]
                              [--limit memory=128M,cpus=1] [--fit-memory] [--training 20]
                                         --limit: each service in cgroups of its own; --fit-memory: the smallest memory limit keeping 0.95x RPS
                                         --set all: every set; --smoke: one scenario per way of starting, 1 s each
                                         --training: seconds a profile-guided Native AOT scenario's JIT twin trains
               Ingest.Lab list                  the scenario sets and their scenarios
               Ingest.Lab compare <runA> <runB> ratios B/A per scenario, marked where beyond the noise
               Ingest.Lab report <run>          rewrite summary.md and report.html from a run's results.json
               Ingest.Lab soak [--minutes 10] [--rate-percent 70] [--against go-nethttp,go-fasthttp|none] [--lean] [--aot|--trimmed]
                                                a long bounded run: memory, threads, handles, errors, loss, latency
                                                percentiles and a per-second probe; then the same soak of each Go stack
                                                --lean: the .NET services with the lean profile (docs/configuration.md#lean-profile); --aot: both Native AOT;
                                                --trimmed: both published trimmed, on the JIT (docs/configuration.md#trimmed-jit-build)
               Ingest.Lab crank [--check]       regenerate crank/ingest.benchmarks.yml from the catalogue (--check: only validate)
               Ingest.Lab train [--training 20] the profiles the services ship for their Native AOT builds (src/*/aot-profile):
                                                the aot set's profile-guided scenarios trained on the JIT, as their rows are
               Ingest.Lab payloads <folder>     write the load payloads (classic.json, batch100.json, batch100.ndjson)
               Ingest.Lab demo                  the flow at a glance: a burst of the classic payload
        """);
    return 2;
}
