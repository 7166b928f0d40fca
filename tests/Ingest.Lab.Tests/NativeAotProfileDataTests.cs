using System.Diagnostics;
using System.Text.Json;
using Ingest.Lab.Running;

namespace Ingest.Lab.Tests;

/// <summary>
/// The Native AOT services are compiled with the framework's profile data (Directory.Build.targets): the compiler's
/// response file, as the lab's own Native AOT publish wrote it, names a .mibc file from the runtime pack that exists.
/// Without it the build still succeeds, only slower code comes out (docs/notebook/native-aot.md#static-profile-data),
/// so this is where a runtime pack without the file, or a target that no longer runs before the compiler, shows. And
/// each service ships profiles of its own per-request path (aot-profile/, the lab's <c>train</c> command): every Native
/// AOT publish is given them unless told otherwise, and they must still describe the code as it is.
/// </summary>
[Collection(LabProcesses.Name)]
[Trait(LabProcesses.Builds, LabProcesses.Native)]
public sealed class NativeAotProfileDataTests(LabFixture lab)
{
    public static TheoryData<string> Services => ["Ingest.FrontEnd", "Ingest.BackEnd"];

    [Theory]
    [MemberData(nameof(Services))]
    public async Task TheNativeAotCompilerIsGivenTheRuntimePacksProfileData(string project)
    {
        // The same publish the lab's aot set starts (the fixture publishes each flavour once per test run).
        await lab.Publisher.PublishAsync(project, CancellationToken.None, "PublishAot=true", "RuntimeIdentifier=linux-x64");

        var responseFile = Path.Combine(lab.Publisher.NativeAotIntermediateFolder(project, "linux-x64"), "native", project + ".ilc.rsp");
        Assert.True(File.Exists(responseFile), responseFile + " was not written by the Native AOT publish");
        // The runtime pack's file; a profile-guided publish of the same project (the aot set's *-pgo rows) adds its
        // workload's own .mibc beside it, and may have been the last to write this file.
        var profiles = File.ReadAllLines(responseFile)
            .Where(line => line.StartsWith("--mibc:", StringComparison.Ordinal))
            .Select(line => line["--mibc:".Length..])
            .Where(path => path.Contains("microsoft.netcore.app.runtime.", StringComparison.OrdinalIgnoreCase))
            .ToList();

        var profile = Assert.Single(profiles);
        Assert.EndsWith(".mibc", profile, StringComparison.Ordinal);
        Assert.Contains("microsoft.netcore.app.runtime.linux-x64", profile, StringComparison.OrdinalIgnoreCase);
        Assert.True(new FileInfo(profile).Length > 0, profile + " is empty or missing");
    }

    [Theory]
    [MemberData(nameof(Services))]
    public async Task EveryNativeAotPublishIsGivenEachProfileItsServiceShips(string project)
    {
        // Each is trained as a profile-guided scenario of the aot set (the train command runs it as that row's training).
        Assert.All(TrainCommand.Trainings, t => Assert.True(Catalogue.ScenarioCatalogue.InSet("aot").Single(s => s.Name == t.Scenario).FrontEnd.ProfileGuided, t.Scenario));
        var shipped = Directory.GetFiles(TrainCommand.ProfileFolder(lab.Layout, Role(project)), "*.mibc").Order(StringComparer.Ordinal).ToList();
        Assert.Equal(TrainCommand.Trainings.Select(t => t.Name + ".mibc").Order(StringComparer.Ordinal), shipped.Select(Path.GetFileName));
        Assert.All(shipped, file => Assert.True(new FileInfo(file).Length > 10_000, file + " is too small to be a trained profile"));

        Assert.Equal(shipped, await ProfilesGivenAsync(project));
    }

    [Theory]
    [MemberData(nameof(Services))]
    public async Task AProfileGivenByNameReplacesTheShippedOnesAndTheSwitchLeavesThemOut(string project)
    {
        var trained = Path.Combine(lab.Output, project + ".trained.mibc");
        File.WriteAllBytes(trained, [0]);

        Assert.Equal([trained], await ProfilesGivenAsync(project, "IngestAotProfile=" + trained));
        Assert.Empty(await ProfilesGivenAsync(project, "IngestAotShippedProfile=false"));
        // Not for a build that is not Native AOT: the JIT reads no .mibc.
        Assert.Empty(await ProfilesGivenAsync(project, "PublishAot=false"));
    }

    [Theory]
    [MemberData(nameof(Services))]
    public async Task TheShippedProfilesStillDescribeTheServicesCode(string project)
    {
        // The lab's JIT publish: the Release IL the profiles were trained on, if the code has not changed since.
        var dll = await lab.Publisher.PublishAsync(project, CancellationToken.None);
        var manifests = TrainCommand.Check(lab.Layout, Role(project), Path.GetDirectoryName(dll)!);

        Assert.Equal(TrainCommand.Trainings.Count, manifests.Count);
        Assert.All(manifests, manifest =>
        {
            Assert.True(manifest.Methods >= 20, $"{manifest.Manifest} names {manifest.Methods} methods: not a trained profile's");
            // Any method gone (renamed, removed, a state machine renumbered) fails; a few with other IL are tolerated.
            Assert.False(manifest.IsStale,
                $"{manifest}\nThe shipped profile no longer matches the code: train again with " +
                "`dotnet run -c Release --project benchmarks/Ingest.Lab -- train` and commit src/*/aot-profile (docs/configuration.md#the-shipped-profiles).");
        });
    }

    private static ServiceRole Role(string project) => Enum.GetValues<ServiceRole>().Single(r => r.Project() == project);

    // The .mibc files a Native AOT publish of the project would hand the compiler beside the framework's (the target
    // that adds them, run alone: what it leaves in MibcFile is what the compiler's response file then names).
    private async Task<List<string>> ProfilesGivenAsync(string project, params string[] properties)
    {
        string[] arguments =
        [
            "msbuild", lab.Layout.Project(project), "-nologo", "-t:IngestAotWorkloadProfile", "-getItem:MibcFile",
            "-p:Configuration=Release", "-p:RuntimeIdentifier=linux-x64", "-p:PublishAot=true", .. properties.Select(p => "-p:" + p),
        ];
        var (exit, stdout, stderr) = await ChildProcess.RunApartAsync(new ProcessStartInfo("dotnet", arguments), TimeSpan.FromMinutes(5));
        Assert.True(exit == 0, $"dotnet {string.Join(" ", arguments)}: exit {exit}: {stdout}{stderr}");

        using var json = JsonDocument.Parse(stdout);
        return json.RootElement.GetProperty("Items").TryGetProperty("MibcFile", out var items)
            ? [.. items.EnumerateArray().Select(i => i.GetProperty("FullPath").GetString()!).Order(StringComparer.Ordinal)]
            : [];
    }
}
