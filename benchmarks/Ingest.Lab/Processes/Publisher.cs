namespace Ingest.Lab.Processes;

/// <summary>Publishes an app (Release, framework-dependent) once per lab run, into the artifacts folder.</summary>
internal sealed class Publisher(RepositoryLayout layout, TextWriter log)
{
    private readonly Dictionary<string, string> _published = [];

    /// <summary>Publishes <paramref name="project"/> and returns the path of its main dll.</summary>
    public async Task<string> PublishAsync(string project, CancellationToken cancellationToken, params string[] properties)
    {
        var key = project + string.Join(";", properties);
        if (_published.TryGetValue(key, out var existing))
        {
            return existing;
        }

        var output = Path.Combine(layout.Artifacts, project + (properties.Length == 0 ? "" : "-" + string.Join("-", properties.Select(FolderPart))));
        // In one MSBuild process (-m:1): a service's projects mostly wait for one another (each references those before
        // it), and the worker nodes a parallel build starts are new processes that JIT-compile MSBuild again, which was
        // most of the CPU of a publish with nothing to compile (docs/notebook/ci-time.md#one-restore-per-tree).
        var arguments = new List<string> { "publish", layout.Project(project), "-c", "Release", "-o", output, "--nologo", "-v", "quiet", "-m:1" };
        foreach (var property in properties)
        {
            arguments.Add("-p:" + property);
        }

        // A build for one runtime in a tree of its own, every project it references included: it restores with that
        // runtime's packages and compiles with other properties than the solution's build, and in the projects' own obj
        // folders it would rewrite what a framework-dependent publish beside it reads. The Native AOT and trimmed builds
        // share a tree and their compiles: the trimmed one restores as a Native AOT one does (a superset: the same
        // runtime packs, and the Native AOT compiler, which it leaves unused) and gives the analyzers the same switches,
        // so the C# compiles of the one serve the other; with other inputs, every switch between them compiled every
        // project again (docs/notebook/ci-time.md#one-tree-for-both-trimmed-builds). A tree's first publish compiles every
        // project, without the analyzers: they only report, so the code is the same, and the solution's build has run
        // them on the same sources (a quarter of each such compile). A framework-dependent publish keeps the solution
        // build's properties, so after a build it compiles nothing.
        var tree = TreeOf(properties);
        if (tree is not null)
        {
            arguments.Add("-p:ArtifactsPath=" + BuildTree(tree));
            arguments.Add("-p:RunAnalyzers=false");
            arguments.AddRange(CompilesAsNativeAot(properties));
        }

        log.WriteLine($"  publishing {project} {string.Join(" ", properties)}");
        using var turn = await PublishLock.TakeAsync(layout, tree, cancellationToken);
        // Without its restore while the last one recorded still holds (RestoreRecord); again with it if that fails.
        var restore = new RestoreRecord(layout, project, tree, properties);
        var skipped = restore.IsCurrent();
        if (!skipped || (await CapturedRun.RunAsync("dotnet", [.. arguments, "--no-restore"], cancellationToken)).Exit != 0)
        {
            if (skipped)
            {
                log.WriteLine($"  {project}: the publish without its restore failed; publishing again with it");
            }

            var started = DateTime.UtcNow;
            var (exit, text) = await CapturedRun.RunAsync("dotnet", arguments, cancellationToken);
            if (exit != 0)
            {
                throw new InvalidOperationException($"dotnet publish {project} failed ({exit}):\n{text}");
            }

            restore.Write(started);
        }

        var dll = Path.Combine(output, project + ".dll");
        _published[key] = dll;
        return dll;
    }

    /// <summary>Where a Native AOT publish for <paramref name="runtime"/> writes its intermediate files (the compiler's
    /// response file among them): the SDK's artifacts layout, under the tree of that runtime's trimmed builds.</summary>
    public string NativeAotIntermediateFolder(string project, string runtime) =>
        Path.Combine(BuildTree(runtime + "-" + Trimmed), "obj", project, "release_" + runtime);

    private const string Trimmed = "trimmed";

    private string BuildTree(string tree) => Path.Combine(layout.Root, "artifacts", "build", tree);

    // The tree a publish for a runtime builds in: "<runtime>-trimmed" for a Native AOT or a trimmed one (a Native AOT
    // build is trimmed too), "<runtime>" for another self-contained one; none for a framework-dependent one.
    internal static string? TreeOf(string[] properties)
    {
        var runtime = Value(properties, "RuntimeIdentifier");
        return runtime is null ? null
            : IsTrue(properties, "PublishAot") || IsTrue(properties, "PublishTrimmed") ? runtime + "-" + Trimmed
            : runtime;
    }

    // What a trimmed JIT publish adds to compile as a Native AOT publish of its tree does: the same restore (-rp: for the
    // restore only; the build stays on the JIT) and the analyzer switches a Native AOT build turns on, which the C#
    // compile reads from its generated .editorconfig though the analyzers do not run in these trees.
    internal static string[] CompilesAsNativeAot(string[] properties) =>
        IsTrue(properties, "PublishTrimmed") && !IsTrue(properties, "PublishAot")
            ? ["-rp:PublishAot=true", "-p:EnableAotAnalyzer=true", "-p:EnableSingleFileAnalyzer=true"]
            : [];

    private static bool IsTrue(string[] properties, string name) => Value(properties, name) == "true";

    private static string? Value(string[] properties, string name) =>
        properties.Where(p => p.StartsWith(name + "=", StringComparison.Ordinal)).Select(p => p[(name.Length + 1)..]).LastOrDefault();

    /// <summary>
    /// One <c>dotnet publish</c> of a build tree at a time, across processes: two publishes of the same tree build the
    /// projects a service references into the same obj folders, so two at once — the lab's suite beside the end-to-end
    /// suite in CI, or two lab runs — can hand a compiler an assembly the other is still writing (a Native AOT compile
    /// failed so, before each runtime had its tree). The framework-dependent tree (the projects' own folders, which the
    /// solution's build fills) and each runtime's and flavour's have a lock of their own: an advisory lock on a file in the artifacts
    /// folder, released when the process holding it exits, however it exits.
    /// </summary>
    internal static class PublishLock
    {
        public static async Task<FileStream> TakeAsync(RepositoryLayout layout, string? tree, CancellationToken cancellationToken)
        {
            Directory.CreateDirectory(layout.Artifacts);
            var path = Path.Combine(layout.Artifacts, tree is null ? ".publish.lock" : $".publish-{tree}.lock");
            while (true)
            {
                try
                {
                    return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
                }
                catch (IOException)
                {
                    await Task.Delay(TimeSpan.FromMilliseconds(250), cancellationToken);
                }
            }
        }
    }

    // "Name=value" as part of a folder name; a file given by path (a profile) by its file name, which the caller keeps unique.
    private static string FolderPart(string property)
    {
        var at = property.IndexOf('=', StringComparison.Ordinal);
        if (at < 0)
        {
            return property;
        }

        var value = property[(at + 1)..];
        return property[..at] + "_" + (Path.IsPathRooted(value) ? Path.GetFileName(value) : value);
    }
}
