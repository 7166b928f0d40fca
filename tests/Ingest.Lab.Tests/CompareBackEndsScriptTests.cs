using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>
/// benchmarks/compare-back-ends.sh: two builds of the back-end behind one front-end that sends every event to both,
/// on the lab's own publish (the script finds the builds where the lab puts them). A short round (2 s of warm-up, 3 s
/// measured) proves the wiring — both back-ends served the events, and the ratio is printed — not a figure.
/// </summary>
[Collection(LabProcesses.Name)]
public sealed partial class CompareBackEndsScriptTests(LabFixture lab)
{
    // The fast path as the aot set's JIT row runs its front-end (IoUring inline, the front-end's own client).
    private static readonly string[] FastPath =
        [.. ScenarioCatalogue.InSet("aot").Single(s => s.Name == "minimal-jit-direct").FrontEnd.SettingArguments];

    [Fact]
    public async Task BothBackEndsServeEveryEventAndTheRatioIsPrinted()
    {
        await lab.Artifacts.ResolveAsync(ServiceSpec.DotNet(), ServiceRole.FrontEnd, CancellationToken.None);
        var (_, backEnd, _) = await lab.Artifacts.ResolveAsync(ServiceSpec.DotNet(), ServiceRole.BackEnd, CancellationToken.None);
        await lab.Artifacts.LoadGeneratorAsync(CancellationToken.None);

        // B named by its publish folder, A by the lab's name for the same build: both ways of naming a build.
        var (exit, output) = await RunAsync(["jit", Path.GetDirectoryName(backEnd[0])!, "1", "--", .. FastPath]);

        Assert.True(exit == 0, output);
        var round = RoundLine().Match(output);
        Assert.True(round.Success, output);
        // The same build on the same events: a back-end the front-end did not send every event to would sit idle, at a
        // small fraction of the other's CPU a request. The bound is loose on purpose; it is not a timing.
        var a = double.Parse(round.Groups["a"].Value, CultureInfo.InvariantCulture);
        var b = double.Parse(round.Groups["b"].Value, CultureInfo.InvariantCulture);
        Assert.InRange(b / a, 1 / 3.0, 3.0);
        Assert.Matches(@"B/A CPU a request: median \d+\.\d{3} over 1 rounds", output);
    }

    [Fact]
    public async Task AFolderWithoutABackEndIsRefusedBeforeAnythingStarts()
    {
        var empty = Directory.CreateTempSubdirectory("ingest-no-back-end-").FullName;
        try
        {
            var (exit, output) = await RunAsync([empty, "jit", "1"]);
            Assert.Equal(3, exit);
            Assert.Contains($"missing {empty}/Ingest.BackEnd", output, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(empty);
        }
    }

    private Task<(int Exit, string Output)> RunAsync(string[] arguments)
    {
        var start = new ProcessStartInfo("bash", [Path.Combine(lab.Layout.Root, "benchmarks", "compare-back-ends.sh"), .. arguments])
        {
            Environment = { ["WARMUP"] = "2", ["MEASURE"] = "3", ["CONNECTIONS"] = "8" },
        };
        return ChildProcess.RunAsync(start, TimeSpan.FromSeconds(120));
    }

    [GeneratedRegex(@"round 1: [\d,]+ requests/s; A (?<a>\d+\.\d) µs, B (?<b>\d+\.\d) µs a request; B/A \d+\.\d{3}")]
    private static partial Regex RoundLine();
}
