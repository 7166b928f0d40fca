using System.Runtime.InteropServices;

namespace Ingest.Pgo.Tests;

/// <summary>
/// A shipped profile's manifest (<see cref="ProfileManifest"/>): the project's own methods of a training, without their
/// counts, and a check of them against assemblies that tells which no longer have the IL they were trained on.
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

        // Two of Ingest's methods (the tier-twice record once); not the generic one, nor the framework's.
        Assert.Equal(2, ProfileManifest.Write(text, manifest, "Ingest."));
        Assert.DoesNotContain("Schema", File.ReadAllText(manifest), StringComparison.Ordinal);

        // Layout was "trained" one byte of IL larger than it is: the check says it changed, and Run did not.
        var result = ProfileManifest.Check(manifest, [ToolFolder, .. PgoCommand.SharedFrameworks(RuntimeEnvironment.GetRuntimeDirectory())]);
        Assert.Equal(2, result.Records);
        Assert.Equal(1, result[Outcome.Resolved]);
        var (method, outcome) = Assert.Single(result.LeftOut);
        Assert.Equal(("Ingest.Pgo.PgoCommand.Layout", Outcome.IlDiffers), (method, outcome));
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
