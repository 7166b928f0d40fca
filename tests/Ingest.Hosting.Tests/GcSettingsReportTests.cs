using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The start-up line says which gen0 budget and region size the GC runs with, read back from the GC rather than from
/// the environment, so a log shows whether the lean profile (docs/configuration.md#lean-profile) was in effect. The GC
/// reads both only from the environment at start, so the back-end runs as a process of its own.
/// </summary>
public sealed class GcSettingsReportTests
{
    [Fact]
    public void TheStartupLineReportsTheLeanProfilesBudgetAndRegions()
    {
        using var backEnd = BackEndProcess.Start(environment: [new("DOTNET_GCgen0size", "800000"), new("DOTNET_GCRegionSize", "100000")]);

        Assert.Contains("gen0max=8MB", backEnd.StartupLine, StringComparison.Ordinal);
        Assert.Contains("region=1MB", backEnd.StartupLine, StringComparison.Ordinal);
    }

    [Fact]
    public void WithoutTheProfileTheGcChoosesAndTheLineSaysSo()
    {
        using var backEnd = BackEndProcess.Start(environment: [new("DOTNET_GCgen0size", ""), new("DOTNET_GCRegionSize", "")]);

        Assert.Contains("region=default", backEnd.StartupLine, StringComparison.Ordinal);
        Assert.Matches(@"gen0max=\d+(\.\d)?MB", backEnd.StartupLine);
    }
}
