using System.Reflection;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.ConsoleArguments;
using BenchmarkDotNet.ConsoleArguments.ListBenchmarks;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace Ingest.Benchmarks.Common;

/// <summary>
/// The configuration every suite runs with: allocations measured everywhere (the memory diagnoser), results exported
/// as GitHub Markdown and full JSON into <c>results/benchmarks/&lt;suite&gt;/</c> (beside the lab's results, ignored by
/// git). The job comes from the command line: BenchmarkDotNet's default when none is given, <c>--job short</c> for a
/// first look, <c>--job dry</c> to prove every benchmark runs.
/// </summary>
public static class BenchmarkHost
{
    /// <summary>The exit code when nothing was measured.</summary>
    public const int NothingMeasured = 2;

    /// <summary>
    /// Runs the benchmarks of <paramref name="suite"/> that the arguments select: 0 when each ran, 1 when any failed, 2
    /// when nothing was measured (a filter that matches no benchmark, arguments BenchmarkDotNet refused), each with a
    /// line on standard error. Only asking for the list, the help or the host's information ends with 0 and nothing run.
    /// </summary>
    public static int Run(Assembly suite, string[] args) => Run(suite, args, Config(suite), Console.Error);

    /// <summary><see cref="Run(Assembly, string[])"/> with another configuration and error writer (tests).</summary>
    public static int Run(Assembly suite, string[] args, IConfig config, TextWriter error)
    {
        ArgumentNullException.ThrowIfNull(error);
        Summary[] summaries = [.. BenchmarkSwitcher.FromAssembly(suite).Run(args, config)];
        if (summaries.Length == 0)
        {
            if (OnlyAsksForInformation(args))
            {
                return 0;
            }

            error.WriteLine($"Nothing was measured: no benchmark of {suite.GetName().Name} matched `{string.Join(' ', args)}` " +
                "(or BenchmarkDotNet refused the arguments, above). `--list flat` names every benchmark.");
            return NothingMeasured;
        }

        var failed = summaries.Where(Failed).ToList();
        foreach (var summary in failed)
        {
            var cases = summary.Reports.Where(r => !r.Success).Select(r => r.BenchmarkCase.DisplayInfo).ToList();
            error.WriteLine($"{summary.Title}: " + (summary.HasCriticalValidationErrors
                ? "refused by validation: " + string.Join("; ", summary.ValidationErrors.Select(e => e.Message))
                : cases.Count == 0 ? "no benchmark produced a result" : "no result for " + string.Join(", ", cases)));
        }

        return failed.Count == 0 ? 0 : 1;
    }

    /// <summary>The suite's configuration, without a job (the command line or the caller adds it). The default
    /// configuration already exports GitHub Markdown (with CSV and HTML); adding it again only draws a warning.</summary>
    public static IConfig Config(Assembly suite) => DefaultConfig.Instance
        .AddDiagnoser(MemoryDiagnoser.Default)
        .AddExporter(JsonExporter.Full)
        .WithArtifactsPath(Path.Combine(RepositoryRoot(), "results", "benchmarks", suite.GetName().Name!))
        .WithOptions(ConfigOptions.JoinSummary);

    /// <summary>One invocation of every benchmark, in this process: proves each one runs, measures nothing.</summary>
    public static IConfig DryConfig(Assembly suite) => Config(suite)
        .AddJob(Job.Dry.WithToolchain(InProcessEmitToolchain.Instance))
        .WithOptions(ConfigOptions.DisableLogFile);

    /// <summary>Whether a run went wrong: a validation error, a benchmark that threw, or one that produced no result.</summary>
    public static bool Failed(Summary summary) =>
        summary.HasCriticalValidationErrors || summary.Reports.Length == 0 || summary.Reports.Any(r => !r.Success);

    /// <summary>Whether the arguments ask only for the help, the version, the benchmarks' list or the host's
    /// information: the runs that measure nothing on purpose. BenchmarkDotNet's parser reports the first two as a
    /// failed parse, so they are recognised by name.</summary>
    private static bool OnlyAsksForInformation(string[] args)
    {
        if (args.Any(a => a is "--help" or "--version"))
        {
            return true;
        }

        var (parsed, _, options) = ConfigParser.Parse(args, NullLogger.Instance);
        return parsed && options is { PrintInformation: true } or { ListBenchmarkCaseMode: not ListBenchmarkCaseMode.Disabled };
    }

    private static string RepositoryRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "Ingest.sln")))
            {
                return folder.FullName;
            }
        }

        return Environment.CurrentDirectory;
    }
}
