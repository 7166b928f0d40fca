namespace Ingest.Pgo;

/// <summary>The command line: read the text profile, resolve it, write the .mibc, say what was kept.</summary>
internal static class PgoCommand
{
    public static int Run(string[] args, TextWriter output, string runtimeDirectory)
    {
        if (args is ["layout", ..])
        {
            return Layout(args[1..], output);
        }

        string? input = null;
        string? destination = null;
        var folders = new List<string>();
        var verbose = false;
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--out" when i + 1 < args.Length:
                    destination = args[++i];
                    break;
                case "--verbose":
                    verbose = true;
                    break;
                case "--assemblies" when i + 1 < args.Length:
                    folders.Add(args[++i]);
                    break;
                case var value when !value.StartsWith("--", StringComparison.Ordinal) && input is null:
                    input = value;
                    break;
                default:
                    output.WriteLine($"unknown argument '{args[i]}'");
                    return Usage(output);
            }
        }

        if (input is null || destination is null)
        {
            return Usage(output);
        }

        folders.AddRange(SharedFrameworks(runtimeDirectory));
        using var assemblies = new AssemblySet(folders);
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

    // layout <trace> --program <native program> --out <file.order>: the order file from a code trace of that program.
    private static int Layout(string[] args, TextWriter output)
    {
        if (args is not [var trace, "--program", var program, "--out", var destination])
        {
            return Usage(output);
        }

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

    private static int Usage(TextWriter output)
    {
        output.WriteLine("usage: Ingest.Pgo <profile.txt> --out <file.mibc> [--assemblies <folder>]... [--verbose]");
        output.WriteLine("       Ingest.Pgo layout <code trace> --program <native program> --out <file.order>");
        return 2;
    }
}
