namespace Ingest.Lab.Tests;

/// <summary>
/// The Native AOT services are compiled with the framework's profile data (Directory.Build.targets): the compiler's
/// response file, as the lab's own Native AOT publish wrote it, names a .mibc file from the runtime pack that exists.
/// Without it the build still succeeds, only slower code comes out (docs/results.md#static-profile-data), so this is
/// where a runtime pack without the file, or a target that no longer runs before the compiler, shows.
/// </summary>
[Collection(LabProcesses.Name)]
public sealed class NativeAotProfileDataTests(LabFixture lab)
{
    public static TheoryData<string> Services => ["Ingest.FrontEnd", "Ingest.BackEnd"];

    [Theory]
    [MemberData(nameof(Services))]
    public async Task TheNativeAotCompilerIsGivenTheRuntimePacksProfileData(string project)
    {
        // The same publish the lab's aot set starts (the fixture publishes each flavour once per test run).
        await lab.Publisher.PublishAsync(project, CancellationToken.None, "PublishAot=true", "RuntimeIdentifier=linux-x64");

        var responseFile = Path.Combine(lab.Layout.Root, "src", project, "obj", "Release", "net10.0", "linux-x64", "native", project + ".ilc.rsp");
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
}
