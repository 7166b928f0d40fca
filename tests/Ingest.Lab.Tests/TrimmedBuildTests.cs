using System.Diagnostics;
using System.Globalization;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>
/// The trimmed JIT build the aot set's <c>minimal-jit-trimmed-*</c> rows start (self-contained, <c>PublishTrimmed</c>):
/// Ingest.Core's reflection switch is set for it, so the trimmer leaves out MVC and Newtonsoft.Json instead of keeping
/// them half-trimmed, and the service refuses those settings at start-up with a message, as the Native AOT build does.
/// That it starts and serves is the smoke test's (LabSmokeTests, the aot set).
/// </summary>
[Collection(LabProcesses.Name)]
[Trait(LabProcesses.Builds, LabProcesses.Native)]
public sealed class TrimmedBuildTests(LabFixture lab)
{
    [Fact]
    public async Task TheTrimmedFrontEndLeavesReflectionOutAndRefusesWhatNeedsIt()
    {
        var (file, arguments, missing) = await lab.Artifacts.ResolveAsync(ServiceSpec.DotNet() with { Trimmed = true }, ServiceRole.FrontEnd, CancellationToken.None);
        Assert.Null(missing);
        Assert.Empty(arguments);
        var folder = Path.GetDirectoryName(file)!;
        Assert.True(File.Exists(file), file + " was not published");
        Assert.False(File.Exists(Path.Combine(folder, "Newtonsoft.Json.dll")), "the trimmed build kept Newtonsoft.Json");
        Assert.False(File.Exists(Path.Combine(folder, "Microsoft.AspNetCore.Mvc.Core.dll")), "the trimmed build kept MVC");

        var (exit, text) = await ChildProcess.RunAsync(
            new ProcessStartInfo(file!)
            {
                ArgumentList =
                {
                    "--urls", "http://127.0.0.1:" + FreePorts.Next().ToString(CultureInfo.InvariantCulture),
                    "--Ingest:ApiStyle", "Mvc", "--Ingest:Serializer", "Newtonsoft",
                },
            },
            TimeSpan.FromSeconds(60));
        // It stops by itself with an error: not 0, and not ChildProcess's -1 for a service that had to be killed.
        Assert.True(exit is not (0 or -1), $"exit {exit}: {text}");
        Assert.Contains("Ingest:ApiStyle = Mvc cannot run in this trimmed build", text, StringComparison.Ordinal);
        Assert.Contains("Ingest:Serializer = Newtonsoft needs reflection, which this trimmed build does not have", text, StringComparison.Ordinal);
    }
}
