using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Ingest.Pgo.Tests;

/// <summary>
/// The converter on a profile the runtime really wrote: a .NET process (this tool itself, printing its usage) runs with
/// every jitted method instrumented and writes its data at exit; the .mibc made from it is read back independently
/// (<see cref="MibcReader"/>) and must hold, for every method, exactly the schema and counts the runtime printed.
/// </summary>
public sealed class ProfileConversionTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("ingest-pgo-").FullName;

    private static string ToolFolder => Path.GetDirectoryName(typeof(PgoCommand).Assembly.Location)!;

    [Fact]
    public async Task EveryMethodOfTheRuntimesProfileIsInTheMibcWithItsOwnSchemaAndCounts()
    {
        var text = await WriteRuntimeProfileAsync();
        var records = TextProfile.Read(text);
        var mibc = Path.Combine(_folder, "tool.mibc");
        using var output = new StringWriter();

        var exit = PgoCommand.Run([text, "--out", mibc, "--assemblies", ToolFolder], output, RuntimeEnvironment.GetRuntimeDirectory());

        Assert.True(exit == 0, output.ToString());
        var methods = MibcReader.Read(mibc);
        // Most of what ran is framework code; the tool's own methods resolve through --assemblies.
        Assert.True(methods.Count > 200, $"only {methods.Count} methods written\n{output}");
        Assert.Contains(methods, m => m.Name == "Ingest.Pgo.PgoCommand.Run" && m.Group == "Ingest.Pgo;");
        Assert.Contains(methods, m => m.Name.StartsWith("System.Collections.Generic.Dictionary`2[System.__Canon,", StringComparison.Ordinal));

        var byName = records.ToLookup(r => r.Name);
        foreach (var method in methods)
        {
            // The record the method came from: the one of that name with exactly this schema (a method instrumented
            // twice has two records; generic methods, which the text cannot name, are never written).
            Assert.True(byName[method.Name].Any(r => Matches(r, method.Schema)), $"{method.Name}: no record with the schema written\n{Describe(method)}");
        }

        // And it came from a method that is not generic: overloads share a name (Enumerable's Select), so the record is
        // the one with this name and schema.
        Assert.All(methods, m => Assert.Contains(byName[m.Name], r => Matches(r, m.Schema) && !r.Signature.Contains("generic", StringComparison.Ordinal)));
    }

    [Fact]
    public void OverloadsOfOneSizeAndArityAreToldApartByTheirPrintedParameters()
    {
        // Math.Max has overloads of the same IL size and arity; the runtime's signature names which one ran.
        var (ilSize, expected) = MathMax("Int64");
        var text = $"""
            *** START PGO Data, max index = 1 ***
            @@@ codehash 0x00000000 methodhash 0x00000000 ilSize 0x{ilSize:X8} records 0x00000001
            MethodName: System.Math.Max
            Signature: int64  (int64,int64)
            Schema InstrumentationKind 385 ILOffset 0 Count 1 Other 3
            7
            *** END PGO Data ***
            """;
        var mibc = Convert(text, out var output);

        var method = Assert.Single(MibcReader.Read(mibc));
        Assert.Equal("System.Math.Max", method.Name);
        Assert.Contains("1 resolved", output, StringComparison.Ordinal);
        Assert.Equal(expected, MibcReader.MemberParameters(mibc));
    }

    [Fact]
    public void HistogramSlotsKeepTheirTypesEmptySlotsAndUnknownTypes()
    {
        var (ilSize, _) = MathMax("Int32");
        var text = $"""
            @@@ codehash 0x00000000 methodhash 0x00000000 ilSize 0x{ilSize:X8} records 0x00000002
            MethodName: System.Math.Max
            Signature: int32  (int32,int32)
            Schema InstrumentationKind 177 ILOffset 4 Count 1 Other 2147483648
            3
            Schema InstrumentationKind 195 ILOffset 4 Count 4 Other 2147483648
            TypeHandle: System.Collections.Generic.List`1[[System.String, System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e]], System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e
            TypeHandle: NULL
            TypeHandle: UNKNOWN
            TypeHandle: System.Byte[], System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e
            """;
        var mibc = Convert(text, out _);

        var schema = Assert.Single(MibcReader.Read(mibc)).Schema;
        Assert.Equal([3L], schema[0].Values);
        // The class probe's flag in the top bit of Other survives as the int the format stores.
        Assert.Equal(int.MinValue, schema[0].Other);
        Assert.Equal(["System.Collections.Generic.List`1[System.String]", null, null, "System.Byte[]"], schema[1].Names);
        Assert.Equal(0L, schema[1].Values[1]);
        Assert.NotEqual(0L, schema[1].Values[2]);
    }

    [Fact]
    public void AValueCountThatDisagreesWithItsEntryIsAnErrorNamingTheLine()
    {
        var text = """
            @@@ codehash 0x00000000 methodhash 0x00000000 ilSize 0x00000010 records 0x00000001
            MethodName: System.Math.Max
            Signature: int32  (int32,int32)
            Schema InstrumentationKind 385 ILOffset 0 Count 2 Other 3
            7
            """;

        var error = Assert.Throws<FormatException>(() => TextProfile.Read(new StringReader(text)));
        Assert.Contains("has 1 values, expected 2", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("System.Collections.Generic.Dictionary`2[System.Net.Sockets.SocketError,Interop+Error]", "System.Collections.Generic.Dictionary`2", 2, null)]
    [InlineData("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Infrastructure.KestrelConnection`1+<ExecuteAsync>d__8[System.__Canon]", "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Infrastructure.KestrelConnection`1+<ExecuteAsync>d__8", 1, null)]
    [InlineData("System.Uri[], System.Private.Uri, Version=10.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a", "System.Uri", 0, "System.Private.Uri")]
    [InlineData("System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib, Version=10.0.0.0],[System.Object, System.Private.CoreLib, Version=10.0.0.0]], System.Private.CoreLib, Version=10.0.0.0", "System.Collections.Generic.Dictionary`2", 2, "System.Private.CoreLib")]
    public void PrintedTypeNamesParseIntoDefinitionArgumentsAndAssembly(string text, string definition, int arguments, string? assembly)
    {
        var name = PrintedTypeName.Parse(text);

        Assert.Equal(definition, name.Definition);
        Assert.Equal(arguments, name.Arguments.Count);
        Assert.Equal(assembly, name.Assembly);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static bool Matches(ProfiledMethod record, IReadOnlyList<MibcEntry> written)
    {
        var readable = record.Schema.Where(e => !e.Unreadable).ToList();
        if (readable.Count != written.Count)
        {
            return false;
        }

        for (var i = 0; i < readable.Count; i++)
        {
            var (expected, actual) = (readable[i], written[i]);
            if ((int)expected.Kind != actual.Kind || expected.IlOffset != actual.IlOffset || expected.Count != actual.Count || expected.Other != actual.Other)
            {
                return false;
            }

            if (expected.Handles.Count > 0)
            {
                // A slot the runtime left empty stays empty; a named one is named (or, if it could not be resolved, unknown).
                for (var slot = 0; slot < expected.Handles.Count; slot++)
                {
                    if ((expected.Handles[slot] == "NULL") != (actual.Values[slot] == 0))
                    {
                        return false;
                    }
                }
            }
            else if (!expected.Values.SequenceEqual(actual.Values))
            {
                return false;
            }
        }

        return true;
    }

    private static string Describe(MibcMethod method) =>
        string.Join("\n", method.Schema.Select(e => $"  kind {e.Kind} offset {e.IlOffset} count {e.Count} other {e.Other}: {string.Join(",", e.Values)}"));

    // Runs the tool (printing its generated help) with every jitted method instrumented from its first call, and the framework
    // jitted rather than precompiled, so a process of a fraction of a second leaves a profile of a few hundred methods.
    private async Task<string> WriteRuntimeProfileAsync()
    {
        var text = Path.Combine(_folder, "tool.pgo.txt");
        var start = new ProcessStartInfo("dotnet", [Path.Combine(ToolFolder, "Ingest.Pgo.dll"), "--help"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment =
            {
                ["DOTNET_WritePGOData"] = "1",
                ["DOTNET_PGODataPath"] = text,
                ["DOTNET_ReadyToRun"] = "0",
                ["DOTNET_TieredPGO_InstrumentOnlyHotCode"] = "0",
            },
        };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        Assert.Contains("Usage:", await stdout, StringComparison.Ordinal);
        Assert.True(File.Exists(text), "the runtime wrote no profile at exit");
        return text;
    }

    private string Convert(string text, out string output)
    {
        var input = Path.Combine(_folder, "crafted.pgo.txt");
        File.WriteAllText(input, text);
        var mibc = Path.Combine(_folder, "crafted.mibc");
        using var writer = new StringWriter();
        var exit = PgoCommand.Run([input, "--out", mibc], writer, RuntimeEnvironment.GetRuntimeDirectory());
        output = writer.ToString();
        Assert.True(exit == 0, output);
        return mibc;
    }

    // The IL size of Math.Max(T, T) for one primitive, and that overload's parameters as the mibc reader prints them.
    private static (int IlSize, string Parameters) MathMax(string primitive)
    {
        using var assemblies = new AssemblySet(PgoCommand.SharedFrameworks(RuntimeEnvironment.GetRuntimeDirectory()));
        var math = assemblies.FindTypes("System.Math").Single(t => t.Assembly.Name == "System.Private.CoreLib");
        var metadata = math.Assembly.Metadata;
        var keyword = primitive == "Int64" ? "int64,int64" : "int32,int32";
        var overload = math.Methods("Max").Single(m => PrintedSignature.Parameters(metadata, m) == keyword);
        return (math.Assembly.IlSize(overload), $"System.{primitive},System.{primitive}");
    }
}
