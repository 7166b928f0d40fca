using System.Buffers.Binary;
using System.Text;

namespace Ingest.Pgo;

/// <summary>
/// What the code layout needs of a 64-bit little-endian ELF file: its loadable segments (where a file offset is in
/// the image's addresses) and its function symbols (name, address, size). A Native AOT publish strips the symbols
/// into <c>&lt;program&gt;.dbg</c>; <see cref="Open"/> reads them from there when the program has none.
/// </summary>
internal sealed class ElfImage
{
    private const uint LoadSegment = 1;
    private const uint SymbolTable = 2;
    private const byte FunctionType = 2;

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
        var image = File.ReadAllBytes(program);
        var functions = ReadFunctions(image);
        var debug = program + ".dbg";
        if (functions.Count == 0 && File.Exists(debug))
        {
            functions = ReadFunctions(File.ReadAllBytes(debug));
        }

        return new ElfImage(ReadSegments(image), functions);
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

    private static void CheckHeader(ReadOnlySpan<byte> image)
    {
        if (image.Length < 64 || image[0] != 0x7F || image[1] != (byte)'E' || image[2] != (byte)'L' || image[3] != (byte)'F')
        {
            throw new InvalidDataException("not an ELF file");
        }

        if (image[4] != 2 || image[5] != 1)
        {
            throw new InvalidDataException("not a 64-bit little-endian ELF file");
        }
    }

    private static List<Segment> ReadSegments(byte[] image)
    {
        CheckHeader(image);
        var table = (int)U64(image, 0x20);
        var size = U16(image, 0x36);
        var count = U16(image, 0x38);
        var segments = new List<Segment>();
        for (var i = 0; i < count; i++)
        {
            var entry = table + i * size;
            if (U32(image, entry) == LoadSegment)
            {
                segments.Add(new Segment(U64(image, entry + 8), U64(image, entry + 16), U64(image, entry + 32), Executable: (U32(image, entry + 4) & 1) != 0));
            }
        }

        return segments;
    }

    private static List<FunctionSymbol> ReadFunctions(byte[] image)
    {
        CheckHeader(image);
        var sections = (int)U64(image, 0x28);
        var size = U16(image, 0x3A);
        var count = U16(image, 0x3C);
        var functions = new List<FunctionSymbol>();
        for (var i = 0; i < count; i++)
        {
            var section = sections + i * size;
            if (U32(image, section + 4) != SymbolTable)
            {
                continue;
            }

            var offset = (int)U64(image, section + 24);
            var length = (int)U64(image, section + 32);
            var entrySize = (int)U64(image, section + 56);
            var names = sections + (int)U32(image, section + 40) * size;
            var namesOffset = (int)U64(image, names + 24);
            for (var symbol = offset; symbol + entrySize <= offset + length; symbol += entrySize)
            {
                var value = U64(image, symbol + 8);
                var symbolSize = U64(image, symbol + 16);
                if ((image[symbol + 4] & 0xF) != FunctionType || symbolSize == 0 || value == 0)
                {
                    continue;
                }

                var name = namesOffset + (int)U32(image, symbol);
                var end = Array.IndexOf(image, (byte)0, name);
                functions.Add(new FunctionSymbol(Encoding.UTF8.GetString(image, name, end - name), value, symbolSize));
            }
        }

        functions.Sort((a, b) => a.Address.CompareTo(b.Address));
        return functions;
    }

    private static ushort U16(byte[] image, int offset) => BinaryPrimitives.ReadUInt16LittleEndian(image.AsSpan(offset));

    private static uint U32(byte[] image, int offset) => BinaryPrimitives.ReadUInt32LittleEndian(image.AsSpan(offset));

    private static ulong U64(byte[] image, int offset) => BinaryPrimitives.ReadUInt64LittleEndian(image.AsSpan(offset));

    internal readonly record struct Segment(ulong FileOffset, ulong Address, ulong FileSize, bool Executable);

    internal readonly record struct FunctionSymbol(string Name, ulong Address, ulong Size);
}
