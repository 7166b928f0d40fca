using System.Runtime.InteropServices;

namespace Ingest.Pgo.Tests;

/// <summary>
/// A shipped profile's manifest (<see cref="ProfileManifest"/>): the project's own methods of a training, without their
/// counts, and a check of them against assemblies that tells which are gone and which no longer have the IL they were
/// trained on (<see cref="ManifestCheck"/>).
/// </summary>
public sealed class ProfileManifestTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("ingest-manifest-").FullName;

    private static string ToolFolder => Path.GetDirectoryName(typeof(PgoCommand).Assembly.Location)!;

    [Fact]
    public void TheManifestKeepsTheProjectsOwnMethodsOnceAndTheCheckNamesTheOnesWhoseIlChanged()
    {
        var run = typeof(PgoCommand).GetMethod(nameof(PgoCommand.Run))!.GetMethodBody()!.GetILAsByteArray()!.Length;
        var layout = typeof(PgoCommand).GetMethod("Layout", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!.GetMethodBody()!.GetILAsByteArray()!.Length;
        var text = Path.Combine(_folder, "service.pgo.txt");
        File.WriteAllText(text, $"""
            *** START PGO Data, max index = 5 ***
            @@@ codehash 0x00000001 methodhash 0x00000001 ilSize 0x{run:X8} records 0x00000001
            MethodName: Ingest.Pgo.PgoCommand.Run
            Signature: int32  (class System.String[],class System.IO.TextWriter,class System.String)
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            7
            @@@ codehash 0x00000002 methodhash 0x00000001 ilSize 0x{run:X8} records 0x00000001
            MethodName: Ingest.Pgo.PgoCommand.Run
            Signature: int32  (class System.String[],class System.IO.TextWriter,class System.String)
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            9
            @@@ codehash 0x00000003 methodhash 0x00000002 ilSize 0x{layout + 1:X8} records 0x00000001
            MethodName: Ingest.Pgo.PgoCommand.Layout
            Signature: int32  (class System.String,class System.String,class System.String,class System.IO.TextWriter)
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            1
            @@@ codehash 0x00000006 methodhash 0x00000005 ilSize 0x{run:X8} records 0x00000001
            MethodName: Ingest.Pgo.PgoCommand.RunRenamed
            Signature: int32  (class System.String[],class System.IO.TextWriter,class System.String)
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            1
            @@@ codehash 0x00000007 methodhash 0x00000006 ilSize 0x00000010 records 0x00000001
            MethodName: Ingest.Pgo.RemovedType.Run
            Signature: int32  ()
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            1
            @@@ codehash 0x00000004 methodhash 0x00000003 ilSize 0x00000010 records 0x00000001
            MethodName: Ingest.Pgo.ProfileConverter.Generic
            Signature: generic int32  (!!0)
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            1
            @@@ codehash 0x00000005 methodhash 0x00000004 ilSize 0x00000010 records 0x00000001
            MethodName: System.Math.Max
            Signature: int32  (int32,int32)
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            1
            *** END PGO Data ***
            """);
        var manifest = Path.Combine(_folder, "service.methods.txt");

        // Four of Ingest's methods (the tier-twice record once); not the generic one, nor the framework's.
        Assert.Equal(4, ProfileManifest.Write(text, manifest, "Ingest."));
        Assert.DoesNotContain("Schema", File.ReadAllText(manifest), StringComparison.Ordinal);

        // Layout was "trained" one byte of IL larger than it is: changed. RunRenamed and RemovedType are not in the code:
        // missing. Run is as trained.
        var check = ProfileManifest.Check(manifest, [ToolFolder, .. PgoCommand.SharedFrameworks(RuntimeEnvironment.GetRuntimeDirectory())]);
        Assert.Equal(4, check.Methods);
        Assert.Equal(["Ingest.Pgo.PgoCommand.Layout"], check.Changed);
        Assert.Equal(["Ingest.Pgo.PgoCommand.RunRenamed (MethodNotFound)", "Ingest.Pgo.RemovedType.Run (TypeNotFound)"], check.Missing.Order(StringComparer.Ordinal));
        Assert.True(check.IsStale);
        Assert.Contains("missing: Ingest.Pgo.PgoCommand.RunRenamed", check.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0, 0, false)]
    [InlineData(0, 5, false)] // a tenth of the 50 methods changed: tolerated
    [InlineData(0, 6, true)]
    [InlineData(1, 0, true)] // one method gone is enough
    public void AProfileIsStaleWhenAMethodIsGoneOrMoreThanATenthChanged(int missing, int changed, bool stale)
    {
        var check = new ManifestCheck("minimal.methods.txt", 50, [.. Enumerable.Repeat("Ingest.Gone", missing)], [.. Enumerable.Repeat("Ingest.Changed", changed)]);

        Assert.Equal(stale, check.IsStale);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
