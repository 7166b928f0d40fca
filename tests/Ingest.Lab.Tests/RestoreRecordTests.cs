using Ingest.Lab.Processes;

namespace Ingest.Lab.Tests;

/// <summary>
/// A publish skips its restore only while the restore recorded for its project and tree still holds: no file a restore
/// reads has changed since that publish started, and it was made with the same properties. On a repository of a few
/// files in a temporary folder, and once on this one.
/// </summary>
public sealed class RestoreRecordTests : IDisposable
{
    private static readonly string[] NativeAot = ["PublishAot=true", "RuntimeIdentifier=linux-x64"];

    private readonly RepositoryLayout _layout = new(Directory.CreateTempSubdirectory("ingest-restore-").FullName);
    private readonly DateTime _longAgo = DateTime.UtcNow.AddMinutes(-10);

    public RestoreRecordTests()
    {
        foreach (var file in new[] { "Directory.Packages.props", "src/Ingest.Core/Ingest.Core.csproj", "src/Ingest.FrontEnd/Ingest.FrontEnd.csproj",
            "src/Ingest.FrontEnd/build/Extra.targets", "src/Ingest.FrontEnd/Program.cs", "src/Ingest.FrontEnd/obj/Ingest.FrontEnd.csproj.nuget.g.props",
            "src/baselines/rust/Cargo.toml" })
        {
            Write(file, _longAgo);
        }
    }

    [Fact]
    public void NothingIsRecordedBeforeAPublishHasRestored() =>
        Assert.False(new RestoreRecord(_layout, "Ingest.FrontEnd", null, []).IsCurrent());

    [Fact]
    public void ARecordedRestoreHoldsForTheSameProjectTreeAndPropertiesWhileNoProjectFileChanges()
    {
        new RestoreRecord(_layout, "Ingest.FrontEnd", "linux-x64-trimmed", NativeAot).Write(DateTime.UtcNow.AddMinutes(-1));

        Assert.True(new RestoreRecord(_layout, "Ingest.FrontEnd", "linux-x64-trimmed", NativeAot).IsCurrent());
        Assert.False(new RestoreRecord(_layout, "Ingest.BackEnd", "linux-x64-trimmed", NativeAot).IsCurrent());
        Assert.False(new RestoreRecord(_layout, "Ingest.FrontEnd", null, []).IsCurrent());
        Assert.False(new RestoreRecord(_layout, "Ingest.FrontEnd", "linux-x64-trimmed", [.. NativeAot, "IngestAotProfile=/tmp/a.mibc"]).IsCurrent());

        // What a restore does not read: sources, what a restore or build writes, the other languages' baselines.
        Write("src/Ingest.FrontEnd/Program.cs", DateTime.UtcNow);
        Write("src/Ingest.FrontEnd/obj/Ingest.FrontEnd.csproj.nuget.g.props", DateTime.UtcNow);
        Write("src/baselines/rust/Cargo.toml", DateTime.UtcNow);
        Assert.True(new RestoreRecord(_layout, "Ingest.FrontEnd", "linux-x64-trimmed", NativeAot).IsCurrent());
    }

    [Theory]
    [InlineData("Directory.Packages.props")]
    [InlineData("Directory.Build.props")]
    [InlineData("global.json")]
    [InlineData("src/Ingest.Core/Ingest.Core.csproj")]
    [InlineData("src/Ingest.FrontEnd/build/Extra.targets")]
    public void AFileARestoreReadsChangedAfterThePublishStartedRestoresAgain(string file)
    {
        var started = DateTime.UtcNow.AddMinutes(-1);
        new RestoreRecord(_layout, "Ingest.FrontEnd", null, []).Write(started);

        // Changed while that publish ran: its restore may not have seen it.
        Write(file, started.AddSeconds(1));

        Assert.False(new RestoreRecord(_layout, "Ingest.FrontEnd", null, []).IsCurrent());
    }

    /// <summary>The real thing: a second publisher (another process's, as CI's suites are) publishes the load generator
    /// without its restore, which the first recorded, and does not have to fall back on one.</summary>
    [Fact]
    public async Task ASecondPublishOfAServiceSkipsTheRestoreTheFirstRecorded()
    {
        var repository = RepositoryLayout.Find();
        await new Publisher(repository, TextWriter.Null).PublishAsync("Ingest.LoadGen", CancellationToken.None);
        Assert.True(new RestoreRecord(repository, "Ingest.LoadGen", null, []).IsCurrent());

        var log = new StringWriter();
        var dll = await new Publisher(repository, log).PublishAsync("Ingest.LoadGen", CancellationToken.None);
        Assert.True(File.Exists(dll), dll);
        Assert.DoesNotContain("without its restore failed", log.ToString(), StringComparison.Ordinal);
    }

    private void Write(string file, DateTime time)
    {
        var path = Path.Combine(_layout.Root, file);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, file);
        File.SetLastWriteTimeUtc(path, time);
    }

    public void Dispose() => Directory.Delete(_layout.Root, recursive: true);
}
