using Ingest.Fuzz;
using SharpFuzz;

// Usage:
//   Ingest.Fuzz list                       the targets' names
//   Ingest.Fuzz <target>                   under afl-fuzz: SharpFuzz's fork server, one input per run on stdin
//                                          (outside afl-fuzz it runs stdin once)
//   Ingest.Fuzz <target> <file|folder>...  replays inputs (a finding, a corpus): exits 1 when one fails, naming it
if (args.Length == 0 || args[0] == "list")
{
    foreach (var each in FuzzTargets.All)
    {
        Console.WriteLine(each.Name);
    }

    return args.Length == 0 ? 2 : 0;
}

if (FuzzTargets.Find(args[0]) is not { } target)
{
    Console.Error.WriteLine($"Unknown target '{args[0]}'. Targets: {string.Join(", ", FuzzTargets.All.Select(t => t.Name))}.");
    return 2;
}

if (args.Length == 1)
{
    // In process, not Fuzzer.OutOfProcess: the targets hold no state between inputs and cannot overflow the stack
    // (the serializers cap depth), and one process for the whole run is many times faster.
    Fuzzer.Run(stream =>
    {
        using var input = new MemoryStream();
        stream.CopyTo(input);
        target.Run(input.GetBuffer().AsSpan(0, (int)input.Length));
    });
    return 0;
}

var failed = 0;
var files = args.Skip(1).SelectMany(path => Directory.Exists(path) ? Directory.GetFiles(path) : [path]).Order(StringComparer.Ordinal);
foreach (var file in files)
{
    try
    {
        target.Run(File.ReadAllBytes(file));
    }
    catch (Exception ex)
    {
        failed++;
        Console.WriteLine($"FAIL {file}: {ex}");
    }
}

Console.WriteLine($"{target.Name}: {failed} of {files.Count()} inputs failed");
return failed == 0 ? 0 : 1;
