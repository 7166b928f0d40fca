using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;

namespace Ingest.Lab.Running;

/// <summary>
/// The programs a run starts, built once per run: the .NET services published in Release (JIT or Native
/// AOT), the load generator, and the Go and Rust baselines built with Debian's toolchains (each baseline's build.sh).
/// A run that checks behaviour rather than speed (<paramref name="checksOnly"/>: a smoke, the tests) builds the Rust
/// peer in cargo's dev profile, which its own tests build too; every other run builds the release profile it is
/// measured with.
/// </summary>
internal sealed class Artifacts(RepositoryLayout layout, Publisher publisher, TextWriter log, bool checksOnly = false)
{
    private readonly Dictionary<string, Task<string?>> _builds = [];

    public RepositoryLayout Layout => layout;

    /// <summary>The command that starts a service of <paramref name="spec"/> in <paramref name="role"/>;
    /// null with a reason when it cannot be had on this machine.</summary>
    public async Task<(string? FileName, IReadOnlyList<string> Arguments, string? Missing)> ResolveAsync(ServiceSpec spec, ServiceRole role, CancellationToken cancellationToken)
    {
        if (spec.Implementation == Implementation.DotNet)
        {
            var project = role.Project();
            if (RedHatPackage.Needs(spec) && RedHatPackage.MissingReason is { } noPackage)
            {
                return (null, [], noPackage);
            }

            if (spec.Trimmed)
            {
                var trimmed = await publisher.PublishAsync(project, cancellationToken, "PublishTrimmed=true", "RuntimeIdentifier=linux-x64", "SelfContained=true");
                return (Path.ChangeExtension(trimmed, null), [], null);
            }

            if (!spec.NativeAot)
            {
                return ("dotnet", [await publisher.PublishAsync(project, cancellationToken)], null);
            }

            try
            {
                if (spec.ProfileGuided && spec.Profile is null)
                {
                    throw new InvalidOperationException($"The {role} is profile-guided but was not trained: run it through {nameof(ProfileTraining)}.");
                }

                string[] properties =
                [
                    "PublishAot=true",
                    "RuntimeIdentifier=linux-x64",
                    .. spec.Profile is { } profile ? ["IngestAotProfile=" + profile] : Array.Empty<string>(),
                    .. spec.Layout is { } layout ? ["IngestAotLayout=" + layout] : Array.Empty<string>(),
                    .. spec.ShippedProfile ? Array.Empty<string>() : ["IngestAotShippedProfile=false"],
                ];
                var dll = await publisher.PublishAsync(project, cancellationToken, properties);
                return (Path.ChangeExtension(dll, null), [], null);
            }
            catch (InvalidOperationException ex)
            {
                return (null, [], "Native AOT publish failed (needs Debian clang and zlib1g-dev): " + ex.Message.Split('\n')[0]);
            }
        }

        if (spec.Implementation == Implementation.Nginx)
        {
            // Its configuration is the scenario's (Topology); the command is the machine's.
            return await Results.MachineInfo.FirstLineAsync("sh", ["-c", "command -v nginx"], cancellationToken) is not null
                ? ("nginx", [], null)
                : (null, [], "nginx is not installed (Debian package nginx)");
        }

        var (baseline, program) = Baseline(spec.Implementation);
        if (!_builds.TryGetValue(baseline, out var build))
        {
            _builds[baseline] = build = BuildBaselineAsync(baseline, cancellationToken);
        }

        var missing = await build;
        var binary = Path.Combine(BaselineBinaries(baseline), program);
        if (!File.Exists(binary))
        {
            return (null, [], missing ?? $"{program} was not built");
        }

        return (binary, [], null);
    }

    /// <summary>A peer's folder under src/baselines and its program's name there.</summary>
    public static (string Baseline, string Program) Baseline(Implementation implementation) => implementation switch
    {
        Implementation.GoNetHttp => ("go", "ingest-go"),
        Implementation.GoFastHttp => ("go", "ingest-go-fasthttp"),
        Implementation.RustHyper => ("rust", "ingest-rust"),
        _ => throw new ArgumentOutOfRangeException(nameof(implementation), implementation, "not a baseline built from src/baselines"),
    };

    /// <summary>Where a baseline's build script puts its programs: src/baselines/&lt;baseline&gt;/bin.</summary>
    public string BaselineBinaries(string baseline) => Path.Combine(layout.Root, "src", "baselines", baseline, "bin");

    /// <summary>
    /// Builds what the scenarios start, before the first of them, so no scenario's time (nor the run's estimate of the
    /// time left) includes a build. What cannot be built is left for its scenario to report; a profile-guided build
    /// waits for its training.
    /// </summary>
    public async Task PrepareAsync(IEnumerable<Scenario> scenarios, CancellationToken cancellationToken)
    {
        await LoadGeneratorAsync(cancellationToken);
        var services = scenarios
            .SelectMany(s => new (ServiceSpec? Spec, ServiceRole Role)[] { (s.FrontEnd, ServiceRole.FrontEnd), (s.BackEnd, ServiceRole.BackEnd) })
            .Where(s => s.Spec is { ProfileGuided: false })
            .Select(s => (Spec: s.Spec! with { Settings = ServiceSpec.None, Environment = ServiceSpec.None }, s.Role))
            .Distinct();
        foreach (var (spec, role) in services)
        {
            try
            {
                await ResolveAsync(spec, role, cancellationToken);
            }
            catch (InvalidOperationException)
            {
                // Its scenario starts it and reports why it cannot.
            }
        }
    }

    public Task<string> LoadGeneratorAsync(CancellationToken cancellationToken) => publisher.PublishAsync("Ingest.LoadGen", cancellationToken);

    // Returns null when everything built, else what the build script said it could not build.
    private async Task<string?> BuildBaselineAsync(string baseline, CancellationToken cancellationToken)
    {
        var script = Path.Combine(layout.Root, "src", "baselines", baseline, "build.sh");
        if (!File.Exists(script))
        {
            return $"the {Title(baseline)} baselines are not in this checkout";
        }

        var arguments = BuildArguments(baseline, checksOnly);
        log.WriteLine($"  building the {Title(baseline)} baselines{(arguments.Length > 0 ? $" ({string.Join(" ", arguments)})" : "")}");
        var (exit, text) = await CapturedRun.RunAsync("bash", [script, .. arguments], cancellationToken);
        var output = text.Trim();
        if (exit == 0)
        {
            return null;
        }

        log.WriteLine($"  {Title(baseline)} baselines: " + output.Replace("\n", "\n    ", StringComparison.Ordinal));
        return $"the {Title(baseline)} build failed or was partial: " + output.Split('\n').LastOrDefault();
    }

    /// <summary>What a baseline's build.sh is given: the Rust one's profile (Go builds one way).</summary>
    internal static string[] BuildArguments(string baseline, bool checksOnly) =>
        baseline == "rust" ? ["--profile", checksOnly ? "dev" : "release"] : [];

    /// <summary>"Go", "Rust": a baseline's folder name as its language is written.</summary>
    private static string Title(string baseline) => char.ToUpperInvariant(baseline[0]) + baseline[1..];
}
