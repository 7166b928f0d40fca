using System.Globalization;
using System.Runtime.InteropServices;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Results;
using Ingest.Lab.Running;
using Ingest.Pgo;

namespace Ingest.Lab;

/// <summary>
/// <c>train</c>: the profiles every Native AOT publish of the services is compiled with (Directory.Build.targets). For
/// each of <see cref="Trainings"/> it runs the scenario's JIT twin under the scenario's load as a <c>*-pgo</c> row's
/// training does (<see cref="ProfileTraining.ProfileAsync"/>), and writes each service's .mibc into its project's
/// <see cref="Folder"/>, beside a manifest of the service's own methods the profile was trained on (name, signature,
/// IL size: <see cref="Check"/> tells when the code has moved on from it). Run it again, and commit what it writes,
/// when the per-request code changes.
/// </summary>
internal sealed class TrainCommand(RepositoryLayout layout, TextWriter output)
{
    /// <summary>The folder beside each service's project that holds the profiles it ships.</summary>
    public const string Folder = "aot-profile";

    /// <summary>The manifest beside each shipped <c>name.mibc</c>: <c>name.methods.txt</c>.</summary>
    public const string ManifestExtension = ".methods.txt";

    /// <summary>
    /// The trainings shipped, as the aot set's profile-guided scenarios they run and the file name each gives its
    /// profiles: the default flow (minimal API, Sockets, HttpClient) and the fast path (IoUring inline, the own client).
    /// Both go into every Native AOT build; the compiler merges them with each other and with the framework's.
    /// </summary>
    public static readonly IReadOnlyList<(string Scenario, string Name)> Trainings =
    [
        ("minimal-aot-pgo", "minimal"),
        ("minimal-aot-pgo-direct", "minimal-direct"),
    ];

    public static string ProfileFolder(RepositoryLayout layout, ServiceRole role) =>
        Path.Combine(layout.Root, "src", role.Project(), Folder);

    public async Task<int> RunAsync(TimeSpan training, CancellationToken cancellationToken)
    {
        var runFolder = Path.Combine(layout.Results, "train-" + DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(runFolder);
        var options = new LabOptions { Sets = ["aot"], Training = training };
        var artifacts = new Artifacts(layout, new Publisher(layout, output), output);
        var machine = await MachineInfo.ReadAsync(cancellationToken);
        var trainer = new ProfileTraining(artifacts, new LoadGenDriver(artifacts.LoadGeneratorAsync), options, Pinning.For(false, machine.Cores), runFolder);
        output.WriteLine($"Training the shipped Native AOT profiles, {training.TotalSeconds:0} s each; training data in {runFolder}");
        foreach (var (name, file) in Trainings)
        {
            var scenario = ScenarioCatalogue.InSet("aot").Single(s => s.Name == name);
            output.WriteLine($"{scenario.Id}: {scenario.Title}");
            var (profiled, folder) = await trainer.ProfileAsync(scenario, step => output.WriteLine("      " + step), cancellationToken);
            foreach (var (role, spec) in new[] { (ServiceRole.FrontEnd, profiled.FrontEnd), (ServiceRole.BackEnd, profiled.BackEnd!) })
            {
                var destination = ProfileFolder(layout, role);
                Directory.CreateDirectory(destination);
                File.Copy(spec.Profile!, Path.Combine(destination, file + ".mibc"), overwrite: true);
                var manifest = Path.Combine(destination, file + ManifestExtension);
                var methods = ProfileManifest.Write(Path.Combine(folder, ProfileTraining.TextData(role)), manifest, "Ingest.");
                output.WriteLine($"      wrote {Path.GetRelativePath(layout.Root, Path.Combine(destination, file + ".mibc"))} and its manifest ({methods} of Ingest's own methods)");
            }
        }

        return 0;
    }

    /// <summary>
    /// Each shipped profile's manifest of <paramref name="role"/> resolved against the service's assemblies in
    /// <paramref name="assemblies"/> (a Release publish) and the shared frameworks this process runs on.
    /// </summary>
    public static IReadOnlyList<ManifestCheck> Check(RepositoryLayout layout, ServiceRole role, string assemblies) =>
        [.. Directory.GetFiles(ProfileFolder(layout, role), "*" + ManifestExtension).Order(StringComparer.Ordinal)
            .Select(manifest => ProfileManifest.Check(manifest, [assemblies, .. PgoCommand.SharedFrameworks(RuntimeEnvironment.GetRuntimeDirectory())]))];
}
