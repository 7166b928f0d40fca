using BenchmarkDotNet.Attributes;
using Ingest.Benchmarks.Common;

namespace Ingest.Benchmarks.Tests;

/// <summary>
/// The suites' entry point (<see cref="BenchmarkHost.Run(System.Reflection.Assembly, string[])"/>) fails when nothing was
/// measured, so a mistyped filter in a script or CI step stops it instead of passing with no numbers; asking only for the
/// list is not a failure.
/// </summary>
[Collection(BenchmarkDotNetRuns.Name)]
public sealed class BenchmarkHostTests
{
    private static readonly System.Reflection.Assembly Micro = typeof(Micro.Categories).Assembly;

    [Fact]
    public void AFilterThatMatchesNoBenchmarkExitsNonZeroSayingNothingWasMeasured()
    {
        using var error = new StringWriter();

        var exit = BenchmarkHost.Run(Micro, ["--filter", "*NoSuchBenchmark*"], BenchmarkHost.Config(Micro), error);

        Assert.Equal(BenchmarkHost.NothingMeasured, exit);
        Assert.Contains("Nothing was measured", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("*NoSuchBenchmark*", error.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--list", "flat")]
    [InlineData("--info")]
    [InlineData("--help")]
    public void AskingOnlyForInformationMeasuresNothingAndSucceeds(params string[] args)
    {
        using var error = new StringWriter();

        Assert.Equal(0, BenchmarkHost.Run(Micro, args, BenchmarkHost.Config(Micro), error));
        Assert.Empty(error.ToString());
    }

    [Fact]
    public void ABenchmarkThatProducesNoResultFailsTheRunNamingIt()
    {
        var assembly = typeof(BenchmarkHostTests).Assembly;
        using var error = new StringWriter();

        var exit = BenchmarkHost.Run(assembly, ["--filter", "*" + nameof(ThrowingBenchmark) + "*"], BenchmarkHost.DryConfig(assembly), error);

        Assert.Equal(1, exit);
        Assert.Contains("no result for " + nameof(ThrowingBenchmark), error.ToString(), StringComparison.Ordinal);
    }
}

/// <summary>A benchmark that never produces a measurement (BenchmarkDotNet needs it public and not sealed).</summary>
public class ThrowingBenchmark
{
    // An instance method, as BenchmarkDotNet calls them (benchmarks/ relaxes CA1822 for the same reason).
#pragma warning disable CA1822
    [Benchmark]
    public void Throw() => throw new InvalidOperationException("this benchmark never produces a result");
#pragma warning restore CA1822
}
