using System.Reflection;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Jobs;
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
    /// <summary>Runs the benchmarks of <paramref name="suite"/> that the arguments select; 1 when any failed.</summary>
    public static int Run(Assembly suite, string[] args)
    {
        var summaries = BenchmarkSwitcher.FromAssembly(suite).Run(args, Config(suite));
        return summaries.Any(Failed) ? 1 : 0;
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
