using System.Diagnostics;

namespace Ingest.Pgo.Tests;

/// <summary>
/// The code tracer and the layout made from its trace, on a real program: a small C program (built here with clang, as
/// the lab builds the tracer) whose functions each start a page, some run and some not, run with the tracer preloaded.
/// The order must name the functions that ran and none that did not, and a fault that is the program's own (here a
/// null read it recovers from, as the .NET runtime recovers from a null reference) must still reach its own handler.
/// </summary>
public sealed class CodeLayoutTests : IDisposable
{
    private const string Program = """
        #include <setjmp.h>
        #include <signal.h>
        #include <stdio.h>
        #include <string.h>

        #define OWN_PAGE __attribute__((noinline, aligned(4096)))

        int ran_once(int x);
        int ran_in_a_loop(int x);
        int never_ran(int x);
        int never_ran_either(int x);

        static sigjmp_buf recover;

        static void on_fault(int signal, siginfo_t *info, void *context)
        {
            (void)signal; (void)info; (void)context;
            siglongjmp(recover, 1);
        }

        int main(int argc, char **argv)
        {
            (void)argv;
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_sigaction = on_fault;
            action.sa_flags = SA_SIGINFO;
            sigaction(SIGSEGV, &action, NULL);

            int total = ran_once(argc);
            for (int i = 0; i < 1000; i++)
                total += ran_in_a_loop(i);
            volatile int *nothing = (volatile int *)(long)(argc - 1);
            if (sigsetjmp(recover, 1) == 0)
            {
                total += *nothing;
                puts("read through a null pointer");
                return 1;
            }
            if (argc > 5)
                total += never_ran(argc) + never_ran_either(argc);
            printf("recovered %d\n", total);
            return 0;
        }

        OWN_PAGE int ran_once(int x) { return x * 3 + 1; }
        OWN_PAGE int never_ran(int x) { return x * 5 + 2; }
        OWN_PAGE int ran_in_a_loop(int x) { return x ^ 0x55; }
        OWN_PAGE int never_ran_either(int x) { return x - 7; }
        /* The page after the last function is shared with what the linker puts next (.fini, which runs at exit). */
        OWN_PAGE int shares_its_page_with_the_exit_code(int x) { return x + 9; }
        """;

    private readonly string _folder = Directory.CreateTempSubdirectory("ingest-code-trace-").FullName;

    [Fact]
    public async Task TheOrderNamesTheFunctionsThatRanAndNoneThatDidNot()
    {
        var (program, trace) = await TraceAsync();

        var (order, result) = CodeLayout.Order(ElfImage.Open(program), CodeLayout.ReadTrace(trace));

        Assert.Contains("main", order);
        Assert.Contains("ran_once", order);
        Assert.Contains("ran_in_a_loop", order);
        Assert.DoesNotContain("never_ran", order);
        Assert.DoesNotContain("never_ran_either", order);
        // In address order, as the trace's build laid them out.
        Assert.True(order.ToList().IndexOf("ran_once") < order.ToList().IndexOf("ran_in_a_loop"), string.Join("\n", order));
        Assert.True(result.TouchedPages >= 3 && result.TouchedPages < result.MappedPages, result.ToString());
    }

    [Fact]
    public async Task TheLayoutCommandWritesTheOrderFile()
    {
        var (program, trace) = await TraceAsync();
        var order = Path.Combine(_folder, "program.order");
        using var output = new StringWriter();

        var exit = PgoCommand.Run(["layout", trace, "--program", program, "--out", order], output, "");

        Assert.True(exit == 0, output.ToString());
        var names = File.ReadAllLines(order);
        Assert.Contains("ran_in_a_loop", names);
        Assert.DoesNotContain("never_ran", names);
        Assert.Contains("code pages touched", output.ToString());
    }

    [Fact]
    public async Task ATraceWithoutItsHeaderIsRefusedWithTheReason()
    {
        var (program, _) = await TraceAsync();
        var empty = Path.Combine(_folder, "empty.code-trace");
        await File.WriteAllBytesAsync(empty, []);
        using var output = new StringWriter();

        var exit = PgoCommand.Run(["layout", empty, "--program", program, "--out", Path.Combine(_folder, "x.order")], output, "");

        Assert.Equal(1, exit);
        Assert.Contains("no code trace header", output.ToString());
    }

    [Fact]
    public async Task AStrippedProgramsFunctionsAreReadFromItsDebugFile()
    {
        // As a Native AOT publish leaves it: the symbols moved into <program>.dbg, the program stripped of them.
        var program = await BuildAsync();
        var stripped = Path.Combine(_folder, "stripped");
        foreach (var (tool, arguments) in new[] { ("objcopy", new[] { "--only-keep-debug", program, stripped + ".dbg" }), ("strip", ["-o", stripped, program]) })
        {
            var (exit, output) = await RunAsync(tool, arguments, []);
            Assert.True(exit == 0, $"{tool}: {output}");
        }

        var whole = ElfImage.Open(program);
        var split = ElfImage.Open(stripped);

        Assert.Contains(whole.Functions, f => f.Name == "ran_in_a_loop");
        Assert.Equal(whole.Functions, split.Functions);
        Assert.Equal(whole.Segments, split.Segments);
        Assert.Contains(split.Segments, s => s.Executable);
        File.Delete(stripped + ".dbg");
        Assert.Empty(ElfImage.Open(stripped).Functions);
    }

    [Fact]
    public void AFileThatIsNotElfIsRefusedWithTheReason()
    {
        var text = Path.Combine(_folder, "program.c");
        File.WriteAllText(text, Program);

        var error = Assert.Throws<InvalidDataException>(() => ElfImage.Open(text));
        Assert.Contains("not a 64-bit ELF file", error.Message, StringComparison.Ordinal);
    }

    // Builds the program and the tracer, runs the program with the tracer preloaded; the program's own fault handler
    // must have recovered (exit 0, "recovered"), the trace must be there.
    private async Task<(string Program, string Trace)> TraceAsync()
    {
        var program = await BuildAsync();
        var tracer = await CodeTracer.BuildAsync(Path.Combine(_folder, "tracer"), CancellationToken.None);
        var trace = Path.Combine(_folder, "program.code-trace");

        var (exit, output) = await RunAsync(program, [], CodeTracer.Environment(tracer, trace));

        Assert.True(exit == 0 && output.Contains("recovered", StringComparison.Ordinal), $"exit {exit}: {output}");
        return (program, trace);
    }

    private async Task<string> BuildAsync()
    {
        var source = Path.Combine(_folder, "program.c");
        var program = Path.Combine(_folder, "program");
        await File.WriteAllTextAsync(source, Program);
        var (exit, output) = await RunAsync("clang", ["-O0", "-o", program, source], []);
        Assert.True(exit == 0, output);
        return program;
    }

    private static async Task<(int Exit, string Output)> RunAsync(string file, string[] arguments, (string Key, string Value)[] environment)
    {
        var start = new ProcessStartInfo(file, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, await output + await errors);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
