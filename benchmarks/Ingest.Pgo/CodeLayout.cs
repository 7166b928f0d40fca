using System.Buffers.Binary;

namespace Ingest.Pgo;

/// <summary>
/// The order a Native AOT build's functions are laid out in, from a code trace of that build under the workload
/// (native/code-trace.c): every function that shares a page with code that ran, in address order. The compiler puts
/// the functions the order names first (<c>--method-layout:explicit --order:&lt;file&gt;</c>), so the code a service runs
/// sits on as few pages as the trace allows, and the pages the kernel maps around each fault are pages of that code.
/// A page holds functions that ran and functions that did not; the order is the functions of the touched pages, a
/// superset of what ran, and the names it has beyond the build it is given to (a function another build inlined, say)
/// are skipped by the compiler.
/// </summary>
internal static class CodeLayout
{
    public const int PageSize = 4096;

    /// <summary>The trace: the code mapping it covers and the pages touched in it, by index from the mapping's start.</summary>
    public sealed record Trace(ulong Start, ulong End, ulong FileOffset, IReadOnlySet<int> Pages)
    {
        public int MappedPages => (int)((End - Start) / PageSize);
    }

    public sealed record Result(int TouchedPages, int MappedPages, int Functions, ulong FunctionBytes, ulong CodeBytes)
    {
        public override string ToString() =>
            $"{TouchedPages} of {MappedPages} code pages touched ({Mb((ulong)TouchedPages * PageSize)} of {Mb((ulong)MappedPages * PageSize)}); " +
            $"{Functions} functions on them ({Mb(FunctionBytes)} of {Mb(CodeBytes)} of functions) laid out first";

        private static string Mb(ulong bytes) => $"{bytes / 1048576.0:0.00} MB";
    }

    public static Trace ReadTrace(string file)
    {
        var bytes = File.ReadAllBytes(file);
        if (bytes.Length < 24)
        {
            throw new InvalidDataException($"{file}: no code trace header (was the program started with the tracer preloaded?)");
        }

        var span = bytes.AsSpan();
        var start = BinaryPrimitives.ReadUInt64LittleEndian(span);
        var end = BinaryPrimitives.ReadUInt64LittleEndian(span[8..]);
        var offset = BinaryPrimitives.ReadUInt64LittleEndian(span[16..]);
        var pages = new HashSet<int>();
        for (var i = 24; i + 4 <= bytes.Length; i += 4)
        {
            pages.Add((int)BinaryPrimitives.ReadUInt32LittleEndian(span[i..]));
        }

        return new Trace(start, end, offset, pages);
    }

    /// <summary>The functions of <paramref name="image"/> on the pages <paramref name="trace"/> touched, in address order.</summary>
    public static (IReadOnlyList<string> Order, Result Result) Order(ElfImage image, Trace trace)
    {
        var mappedAt = image.AddressOf(trace.FileOffset);
        var mappedEnd = mappedAt + (ulong)trace.MappedPages * PageSize;
        var order = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        ulong laidOut = 0, code = 0;
        foreach (var function in image.Functions)
        {
            if (function.Address < mappedAt || function.Address >= mappedEnd)
            {
                continue;
            }

            code += function.Size;
            var first = (int)((function.Address - mappedAt) / PageSize);
            var last = (int)((function.Address + function.Size - 1 - mappedAt) / PageSize);
            for (var page = first; page <= last; page++)
            {
                if (trace.Pages.Contains(page))
                {
                    if (seen.Add(function.Name))
                    {
                        order.Add(function.Name);
                        laidOut += function.Size;
                    }

                    break;
                }
            }
        }

        return (order, new Result(trace.Pages.Count, trace.MappedPages, order.Count, laidOut, code));
    }

    /// <summary>Reads the trace, writes the order file; what it found, for the log.</summary>
    public static Result Write(string traceFile, string program, string orderFile)
    {
        var (order, result) = Order(ElfImage.Open(program), ReadTrace(traceFile));
        if (order.Count == 0)
        {
            throw new InvalidDataException($"{traceFile}: no function of {program} is on a touched page (a trace of another build?)");
        }

        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(orderFile))!);
        File.WriteAllLines(orderFile, order);
        return result;
    }
}
