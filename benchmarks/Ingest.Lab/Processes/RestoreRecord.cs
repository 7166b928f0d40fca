namespace Ingest.Lab.Processes;

/// <summary>
/// Whether a publish may skip its restore. Every <c>dotnet publish</c> restores first, and a restore with nothing to do
/// still evaluates every project of the service again: about half the CPU of an up-to-date publish
/// (docs/notebook/ci-time.md#one-restore-per-tree). The lab publishes each service once per process, but CI's suites
/// and a user's lab runs are many processes, so the last restore of each project and build tree is recorded: a file in
/// the artifacts folder whose time is when that publish started and whose text is what the restore depended on beyond
/// the repository's files (the properties, the Red Hat package's folder, the runtime). A publish skips its restore while
/// that record is newer than every file a restore reads — the projects' files, the repository's <c>Directory.*</c>
/// files, <c>global.json</c>, <c>NuGet.config</c> — and says the same; a publish that skipped it and failed is run again
/// with its restore (an <c>obj</c> folder deleted, a new SDK).
/// </summary>
internal sealed class RestoreRecord
{
    /// <summary>The environment variable that adds the Red Hat transport's package folder to the restore
    /// (Directory.Build.props: <c>RedHatTransportPackages</c>, read by MSBuild from the environment too).</summary>
    private const string RedHatPackages = "RedHatTransportPackages";

    private readonly RepositoryLayout _layout;
    private readonly string _path;
    private readonly string _text;

    public RestoreRecord(RepositoryLayout layout, string project, string? tree, IEnumerable<string> properties)
    {
        _layout = layout;
        _path = Path.Combine(layout.Artifacts, ".restored", (tree ?? "framework-dependent") + "-" + project);
        _text = string.Join("\n",
        [
            .. properties,
            RedHatPackages + "=" + Environment.GetEnvironmentVariable(RedHatPackages),
            "runtime=" + Environment.Version,
        ]) + "\n";
    }

    /// <summary>True when the recorded restore still holds: a publish may pass <c>--no-restore</c>.</summary>
    public bool IsCurrent()
    {
        var recorded = new FileInfo(_path);
        return recorded.Exists
            && File.ReadAllText(_path) == _text
            && RestoreInputs().All(input => File.GetLastWriteTimeUtc(input) < recorded.LastWriteTimeUtc);
    }

    /// <summary>Records a restore done by a publish that started at <paramref name="started"/> and succeeded: a file
    /// changed while it ran is newer than the record, so the next publish restores again.</summary>
    public void Write(DateTime started)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_path)!);
        File.WriteAllText(_path, _text);
        File.SetLastWriteTimeUtc(_path, started);
    }

    // What a restore of a service reads from the repository: the files at its root that every project imports, and every
    // project, props and targets file of the services' folders (src/, without the Go and Rust baselines), outside bin/
    // and obj/. More than one service's graph, which only makes a restore more likely.
    private IEnumerable<string> RestoreInputs()
    {
        foreach (var name in new[] { "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props", "global.json", "NuGet.config", "nuget.config" })
        {
            var file = Path.Combine(_layout.Root, name);
            if (File.Exists(file))
            {
                yield return file;
            }
        }

        var src = Path.Combine(_layout.Root, "src");
        foreach (var project in Directory.EnumerateDirectories(src).Where(d => Path.GetFileName(d) != "baselines"))
        {
            foreach (var file in ProjectFiles(project))
            {
                yield return file;
            }
        }
    }

    private static IEnumerable<string> ProjectFiles(string folder)
    {
        foreach (var file in Directory.EnumerateFiles(folder).Where(f => Path.GetExtension(f) is ".csproj" or ".props" or ".targets"))
        {
            yield return file;
        }

        foreach (var child in Directory.EnumerateDirectories(folder).Where(d => Path.GetFileName(d) is not ("bin" or "obj")))
        {
            foreach (var file in ProjectFiles(child))
            {
                yield return file;
            }
        }
    }
}
