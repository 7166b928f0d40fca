using System.Reflection;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Running;
using Ingest.Benchmarks.Common;
using Xunit.Abstractions;

namespace Ingest.Benchmarks.Tests;

/// <summary>
/// Each suite, every benchmark once: BenchmarkDotNet's dry job in this process, which runs each case's setup, one
/// invocation and its cleanup, and validates the benchmarks the way a real run does. Times are not looked at.
/// One collection, so the two suites never run at the same time (the macro suite opens real sockets).
/// </summary>
[Collection(BenchmarkDotNetRuns.Name)]
public sealed class SuiteTests(ITestOutputHelper output)
{
    public static TheoryData<string> Suites => new() { "Micro", "Macro" };

    [Theory]
    [MemberData(nameof(Suites))]
    public void EveryBenchmarkOfTheSuiteRunsOnce(string suite)
    {
        var assembly = Suite(suite);
        var expected = Cases(assembly).Count;

        var summaries = BenchmarkRunner.Run(assembly, BenchmarkHost.DryConfig(assembly));

        var reports = summaries.SelectMany(s => s.Reports).ToList();
        foreach (var failed in reports.Where(r => !r.Success))
        {
            output.WriteLine($"FAILED {failed.BenchmarkCase.DisplayInfo}: {string.Join(" | ", failed.ExecuteResults.SelectMany(e => e.Results).TakeLast(5))}");
        }

        Assert.NotEmpty(summaries);
        Assert.All(summaries, s => Assert.False(s.HasCriticalValidationErrors, string.Join("; ", s.ValidationErrors.Select(e => e.Message))));
        Assert.Equal(expected, reports.Count);
        Assert.All(reports, r => Assert.True(r.Success, $"{r.BenchmarkCase.DisplayInfo} did not run"));
        Assert.All(reports, r => Assert.True(r.GcStats.TotalOperations > 0, $"{r.BenchmarkCase.DisplayInfo}: no allocation figures"));
        Assert.DoesNotContain(summaries, BenchmarkHost.Failed);
    }

    [Theory]
    [MemberData(nameof(Suites))]
    public void EveryBenchmarkHasOneOfTheSuitesCategoriesAndEveryCategoryHasBenchmarks(string suite)
    {
        var assembly = Suite(suite);
        var categories = assembly.GetTypes().Single(t => t.Name == "Categories")
            .GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => (string)f.GetValue(null)!).ToHashSet();
        var cases = Cases(assembly);

        Assert.All(cases, c => Assert.Single(c.Descriptor.Categories, categories.Contains));
        Assert.All(categories, category => Assert.Contains(cases, c => c.Descriptor.Categories.Contains(category)));
    }

    [Theory]
    [MemberData(nameof(Suites))]
    public void TheSuitesConfigurationMeasuresAllocationsAndExportsMarkdownAndJsonWithoutWarnings(string suite)
    {
        var config = ImmutableConfigBuilder.Create(BenchmarkHost.Config(Suite(suite)));

        Assert.Contains(config.GetDiagnosers(), d => d is MemoryDiagnoser);
        Assert.Single(config.GetExporters(), e => e.Name == MarkdownExporter.GitHub.Name);
        Assert.Single(config.GetExporters(), e => e.Name == JsonExporter.Full.Name);
        Assert.Empty(config.ConfigAnalysisConclusion.Select(c => c.Message));
    }

    private static Assembly Suite(string name) => name == "Micro"
        ? typeof(Micro.Categories).Assembly
        : typeof(Macro.Categories).Assembly;

    private static List<BenchmarkDotNet.Running.BenchmarkCase> Cases(Assembly assembly) =>
        assembly.GetTypes()
            .Where(t => t is { IsAbstract: false, IsPublic: true } && t.GetMethods().Any(m => m.IsDefined(typeof(BenchmarkDotNet.Attributes.BenchmarkAttribute))))
            .SelectMany(t => BenchmarkConverter.TypeToBenchmarks(t).BenchmarksCases)
            .ToList();
}
