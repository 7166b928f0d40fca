using System.Diagnostics;

namespace Ingest.Pgo;

/// <summary>
/// Builds native/code-trace.c (shipped beside this assembly) into the shared library a layout training preloads, with
/// the C compiler a Native AOT publish already needs (clang), and says how to start a program with it.
/// </summary>
internal static class CodeTracer
{
    public const string TraceVariable = "INGEST_CODE_TRACE";

    public static string Source => Path.Combine(AppContext.BaseDirectory, "native", "code-trace.c");

    /// <summary>The tracer built into <paramref name="folder"/> (once: an existing build newer than the source is kept).</summary>
    public static async Task<string> BuildAsync(string folder, CancellationToken cancellationToken)
    {
        var library = Path.Combine(folder, "code-trace.so");
        if (File.Exists(library) && File.GetLastWriteTimeUtc(library) >= File.GetLastWriteTimeUtc(Source))
        {
            return library;
        }

        Directory.CreateDirectory(folder);
        var start = new ProcessStartInfo("clang", ["-shared", "-fPIC", "-O2", "-Wall", "-o", library, Source, "-ldl"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        Process process;
        try
        {
            process = Process.Start(start)!;
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException("the code tracer needs clang (Debian's clang, which a Native AOT publish needs too): " + ex.Message);
        }

        using (process)
        {
            var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
            var errors = process.StandardError.ReadToEndAsync(cancellationToken);
            await process.WaitForExitAsync(cancellationToken);
            if (process.ExitCode != 0)
            {
                throw new InvalidOperationException($"clang could not build the code tracer: {await output}{await errors}");
            }
        }

        return library;
    }

    /// <summary>The environment that starts a program with the tracer writing to <paramref name="traceFile"/>.</summary>
    public static (string Key, string Value)[] Environment(string library, string traceFile) =>
        [("LD_PRELOAD", library), (TraceVariable, traceFile)];
}
