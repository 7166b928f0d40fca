using System.CommandLine;
using System.CommandLine.Invocation;

namespace Ingest.Pgo;

/// <summary>The command line (System.CommandLine, as the lab's and the load generator's): read the text profile, resolve
/// it, write the .mibc, say what was kept; or, with <c>layout</c>, the order file from a code trace.</summary>
internal static class PgoCommand
{
    /// <summary>Exit code: a command line the tool cannot run (an unknown or misspelled option, a missing value).</summary>
    public const int UsageError = 2;

    /// <summary>Parses <paramref name="args"/> (System.CommandLine: generated help, suggestions for a misspelled option)
    /// and runs what they ask for; errors go to <paramref name="output"/> as everything else does.</summary>
    public static int Run(string[] args, TextWriter output, string runtimeDirectory)
    {
        var result = Build(runtimeDirectory).Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });
        if (result.Action is ParseErrorAction parseError)
        {
            // The errors and the suggestions only; the help is one --help away.
            parseError.ShowHelp = false;
            result.Invoke(new InvocationConfiguration { Output = output, Error = output, ProcessTerminationTimeout = null });
            output.WriteLine("Run with --help for usage.");
            return UsageError;
        }

        return result.Invoke(new InvocationConfiguration { Output = output, Error = output, EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null });
    }

    public static RootCommand Build(string runtimeDirectory)
    {
        var profile = new Argument<string>("profile") { Description = "The text profile a JIT-run service wrote at exit with DOTNET_WritePGOData=1 DOTNET_PGODataPath=<file>." };
        var output = new Option<string>("--out") { Description = "The .mibc to write.", Required = true };
        var assemblies = new Option<string[]>("--assemblies")
        {
            Description = "A folder of the service's own assemblies (its publish folder), searched before the shared frameworks this tool runs on; may be given more than once. [default: none]",
            AllowMultipleArgumentsPerToken = false,
        };
        var verbose = new Option<bool>("--verbose") { Description = "Also list what was left out, and why. [default: off]" };
        var root = new RootCommand("Turns a JIT run's instrumentation data into the .mibc profile the Native AOT compiler reads.")
        {
            profile, output, assemblies, verbose,
        };
        root.SetAction(result => Convert(result.GetRequiredValue(profile), result.GetRequiredValue(output), result.GetValue(assemblies) ?? [], result.GetValue(verbose), result.InvocationConfiguration.Output, runtimeDirectory));

        var trace = new Argument<string>("trace") { Description = "A code trace of the native program under load (native/code-trace.c)." };
        var program = new Option<string>("--program") { Description = "The native program the trace was taken of.", Required = true };
        var order = new Option<string>("--out") { Description = "The order file to write (one function a line).", Required = true };
        var layout = new Command("layout", "The order file that lays a Native AOT program's code out by a trace of it.") { trace, program, order };
        layout.SetAction(result => Layout(result.GetRequiredValue(trace), result.GetRequiredValue(program), result.GetRequiredValue(order), result.InvocationConfiguration.Output));
        root.Subcommands.Add(layout);
        return root;
    }

    /// <summary>Reads the text profile, resolves it against the assemblies, writes the .mibc and says what was kept.</summary>
    private static int Convert(string input, string destination, IReadOnlyList<string> serviceFolders, bool verbose, TextWriter output, string runtimeDirectory)
    {
        using var assemblies = new AssemblySet([.. serviceFolders, .. SharedFrameworks(runtimeDirectory)]);
        var methods = TextProfile.Read(input);
        var writer = new MibcWriter(assemblies);
        var result = new ProfileConverter(assemblies).Convert(methods, writer);
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(destination))!);
        using (var file = File.Create(destination))
        {
            writer.Write(file, Path.GetFileNameWithoutExtension(destination));
        }

        output.WriteLine($"{input}: {result}");
        output.WriteLine($"wrote {destination} ({assemblies.Count} assemblies searched)");
        if (verbose)
        {
            foreach (var (method, outcome) in result.LeftOut)
            {
                output.WriteLine($"  left out ({outcome}): {method}");
            }
        }

        return result.Methods > 0 ? 0 : 1;
    }

    /// <summary>
    /// The shared frameworks beside the runtime this tool runs on (Microsoft.NETCore.App and, of the same version,
    /// Microsoft.AspNetCore.App): the service the profile came from ran on the same installation.
    /// </summary>
    public static IEnumerable<string> SharedFrameworks(string runtimeDirectory)
    {
        var netCore = new DirectoryInfo(runtimeDirectory.TrimEnd(Path.DirectorySeparatorChar));
        yield return netCore.FullName;
        if (netCore.Parent?.Parent is { } shared)
        {
            var aspNetCore = Path.Combine(shared.FullName, "Microsoft.AspNetCore.App", netCore.Name);
            if (Directory.Exists(aspNetCore))
            {
                yield return aspNetCore;
            }
        }
    }

    /// <summary>The order file from a code trace of <paramref name="program"/>.</summary>
    private static int Layout(string trace, string program, string destination, TextWriter output)
    {
        try
        {
            output.WriteLine($"{trace}: {CodeLayout.Write(trace, program, destination)}");
            output.WriteLine($"wrote {destination}");
            return 0;
        }
        catch (InvalidDataException ex)
        {
            output.WriteLine(ex.Message);
            return 1;
        }
    }
}
