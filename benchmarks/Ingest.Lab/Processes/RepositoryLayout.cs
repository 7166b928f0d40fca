namespace Ingest.Lab.Processes;

/// <summary>Where things are in the repository, found from the running lab, whatever the working directory.</summary>
internal sealed class RepositoryLayout(string root)
{
    public string Root { get; } = root;

    public string Project(string name) => Path.Combine(Root, "src", name, name + ".csproj");

    public string Artifacts => Path.Combine(Root, "artifacts", "lab");

    public string Results => Path.Combine(Root, "results");

    /// <summary>Walks up from <paramref name="start"/> to the folder holding Ingest.sln.</summary>
    public static RepositoryLayout Find(string? start = null)
    {
        for (var dir = new DirectoryInfo(start ?? AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Ingest.sln")))
            {
                return new RepositoryLayout(dir.FullName);
            }
        }

        throw new InvalidOperationException("Ingest.sln not found above " + (start ?? AppContext.BaseDirectory) + ": run the lab from a clone of the repository.");
    }
}
