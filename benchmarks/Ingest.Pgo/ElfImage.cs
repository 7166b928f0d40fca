using ELFSharp;
using ELFSharp.ELF;
using ELFSharp.ELF.Sections;
using ELFSharp.ELF.Segments;

namespace Ingest.Pgo;

/// <summary>
/// What the code layout needs of a 64-bit little-endian ELF file, read with ELFSharp: its loadable segments (where a
/// file offset is in the image's addresses) and its function symbols (name, address, size). A Native AOT publish strips
/// the symbols into <c>&lt;program&gt;.dbg</c>; <see cref="Open"/> reads them from there when the program has none.
/// </summary>
internal sealed class ElfImage
{
    private ElfImage(IReadOnlyList<Segment> segments, IReadOnlyList<FunctionSymbol> functions)
    {
        Segments = segments;
        Functions = functions;
    }

    /// <summary>The loadable segments, as the program headers give them.</summary>
    public IReadOnlyList<Segment> Segments { get; }

    /// <summary>The function symbols with a size, by address.</summary>
    public IReadOnlyList<FunctionSymbol> Functions { get; }

    public static ElfImage Open(string program)
    {
        using var image = Load(program);
        var functions = ReadFunctions(image);
        var debug = program + ".dbg";
        if (functions.Count == 0 && File.Exists(debug))
        {
            using var symbols = Load(debug);
            functions = ReadFunctions(symbols);
        }

        return new ElfImage(
            [.. image.Segments.Where(s => s.Type == SegmentType.Load).Select(s => new Segment((ulong)s.Offset, s.Address, (ulong)s.FileSize, s.Flags.HasFlag(SegmentFlags.Execute)))],
            functions);
    }

    /// <summary>The image address a file offset of a loadable segment is mapped at.</summary>
    public ulong AddressOf(ulong fileOffset)
    {
        foreach (var segment in Segments)
        {
            if (fileOffset >= segment.FileOffset && fileOffset < segment.FileOffset + segment.FileSize)
            {
                return segment.Address + (fileOffset - segment.FileOffset);
            }
        }

        // The page that starts a segment's mapping may begin before the segment itself (offsets are page-aligned there).
        foreach (var segment in Segments)
        {
            var pageStart = segment.FileOffset & ~0xFFFUL;
            if (fileOffset >= pageStart && fileOffset < segment.FileOffset)
            {
                return segment.Address - (segment.FileOffset - fileOffset);
            }
        }

        throw new InvalidDataException($"file offset 0x{fileOffset:x} is in no loadable segment");
    }

    private static ELF<ulong> Load(string file)
    {
        if (!ELFReader.TryLoad<ulong>(file, out var elf))
        {
            throw new InvalidDataException($"{file}: not a 64-bit ELF file");
        }

        if (elf.Endianess != Endianess.LittleEndian)
        {
            elf.Dispose();
            throw new InvalidDataException($"{file}: not a little-endian ELF file");
        }

        return elf;
    }

    // The static symbol table only (.symtab): the dynamic one (.dynsym) names the exports, a subset.
    private static List<FunctionSymbol> ReadFunctions(ELF<ulong> elf)
    {
        var functions = elf.GetSections<SymbolTable<ulong>>()
            .Where(table => table.Type == SectionType.SymbolTable)
            .SelectMany(table => table.Entries)
            .Where(symbol => symbol is { Type: SymbolType.Function, Size: not 0, Value: not 0 })
            .Select(symbol => new FunctionSymbol(symbol.Name, symbol.Value, symbol.Size))
            .ToList();
        functions.Sort((a, b) => a.Address.CompareTo(b.Address));
        return functions;
    }

    internal readonly record struct Segment(ulong FileOffset, ulong Address, ulong FileSize, bool Executable);

    internal readonly record struct FunctionSymbol(string Name, ulong Address, ulong Size);
}
