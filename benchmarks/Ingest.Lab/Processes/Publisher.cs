using System.Diagnostics;

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
        // Without the analyzers: they only report, so the code is the same, and a Native AOT or trimmed publish compiles every
        // project again for its runtime (a build of the solution has already run them on the same sources). Source
        // generators still run. Saves about a quarter of each such compile.
        var arguments = new List<string> { "publish", layout.Project(project), "-c", "Release", "-o", output, "--nologo", "-v", "quiet", "-p:RunAnalyzers=false" };
        foreach (var property in properties)
        {
            arguments.Add("-p:" + property);
        }

        log.WriteLine($"  publishing {project} {string.Join(" ", properties)}");
        using var turn = await PublishLock.TakeAsync(layout, cancellationToken);
        var start = new ProcessStartInfo("dotnet", arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start dotnet publish.");
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"dotnet publish {project} failed ({process.ExitCode}):\n{await stdout}\n{await stderr}");
        }

        var dll = Path.Combine(output, project + ".dll");
        _published[key] = dll;
        return dll;
    }

    /// <summary>
    /// One <c>dotnet publish</c> of this repository at a time, across processes: every publish restores and builds the
    /// projects a service references into the same obj folders (a Native AOT publish rewrites their assets files for its
    /// runtime), so two at once — the lab's suite beside the end-to-end suite in CI, or two lab runs — can hand the
    /// Native AOT compiler an assembly the other is still writing. An advisory lock on a file in the artifacts folder,
    /// released when the process holding it exits, however it exits.
    /// </summary>
    internal static class PublishLock
    {
        public static async Task<FileStream> TakeAsync(RepositoryLayout layout, CancellationToken cancellationToken)
        {
            Directory.CreateDirectory(layout.Artifacts);
            var path = Path.Combine(layout.Artifacts, ".publish.lock");
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
