using System.Globalization;

namespace Ingest.Pgo;

/// <summary>
/// The instrumentation data the runtime writes at exit with <c>DOTNET_WritePGOData=1</c> and
/// <c>DOTNET_PGODataPath=&lt;file&gt;</c>: one record a method, each a header line
/// (<c>@@@ codehash … methodhash … ilSize … records …</c>), the method's name and signature as the runtime prints
/// them, then its schema (<c>Schema InstrumentationKind k ILOffset o Count c Other x</c>), each entry followed by its
/// <c>Count</c> values: numbers for counters, <c>TypeHandle: …</c> / <c>MethodHandle: …</c> lines for histograms.
/// </summary>
internal static class TextProfile
{
    private const string MethodHeader = "@@@ ";
    private const string MethodNamePrefix = "MethodName: ";
    private const string SignaturePrefix = "Signature: ";
    private const string SchemaPrefix = "Schema ";
    private const string TypeHandlePrefix = "TypeHandle: ";
    private const string MethodHandlePrefix = "MethodHandle: ";

    public static IReadOnlyList<ProfiledMethod> Read(string path)
    {
        using var reader = new StreamReader(path);
        return Read(reader);
    }

    public static IReadOnlyList<ProfiledMethod> Read(TextReader reader)
    {
        var methods = new List<ProfiledMethod>();
        ProfiledMethod? current = null;
        SchemaEntry? entry = null;
        var lineNumber = 0;
        string? line;
        while ((line = reader.ReadLine()) is not null)
        {
            lineNumber++;
            if (line.Length == 0 || line.StartsWith("***", StringComparison.Ordinal))
            {
                continue;
            }

            if (line.StartsWith(MethodHeader, StringComparison.Ordinal))
            {
                Complete(entry, lineNumber);
                entry = null;
                current = new ProfiledMethod { IlSize = (int)HeaderField(line, "ilSize", lineNumber) };
                methods.Add(current);
                continue;
            }

            if (current is null)
            {
                throw new FormatException($"line {lineNumber}: data before the first method header");
            }

            if (line.StartsWith(MethodNamePrefix, StringComparison.Ordinal))
            {
                current.Name = line[MethodNamePrefix.Length..];
            }
            else if (line.StartsWith(SignaturePrefix, StringComparison.Ordinal))
            {
                current.Signature = line[SignaturePrefix.Length..];
            }
            else if (line.StartsWith(SchemaPrefix, StringComparison.Ordinal))
            {
                Complete(entry, lineNumber);
                entry = new SchemaEntry
                {
                    Kind = (PgoKind)(int)SchemaField(line, "InstrumentationKind", lineNumber),
                    IlOffset = (int)SchemaField(line, "ILOffset", lineNumber),
                    Count = (int)SchemaField(line, "Count", lineNumber),
                    // Printed unsigned (a class probe's Other carries a flag in its top bit); the format stores an int.
                    Other = unchecked((int)(uint)SchemaField(line, "Other", lineNumber)),
                };
                current.Schema.Add(entry);
            }
            else if (entry is null)
            {
                throw new FormatException($"line {lineNumber}: a value before any schema entry: {line}");
            }
            else if (line.StartsWith(TypeHandlePrefix, StringComparison.Ordinal))
            {
                entry.Handles.Add(line[TypeHandlePrefix.Length..]);
            }
            else if (line.StartsWith(MethodHandlePrefix, StringComparison.Ordinal))
            {
                entry.Handles.Add(line[MethodHandlePrefix.Length..]);
            }
            else if (line.Contains(' ', StringComparison.Ordinal))
            {
                // An eight-byte value of a value histogram is printed as two numbers, in an order the format does not
                // document: the entry is kept in the count but left out of the profile.
                entry.Values.Add(0);
                entry.Unreadable = true;
            }
            else
            {
                entry.Values.Add(long.Parse(line, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture));
            }
        }

        Complete(entry, lineNumber);
        return methods;
    }

    private static void Complete(SchemaEntry? entry, int lineNumber)
    {
        if (entry is null)
        {
            return;
        }

        var expected = entry.Kind.Marshal() is PgoKind.None ? 0 : entry.Count;
        var found = entry.Values.Count + entry.Handles.Count;
        if (found != expected)
        {
            throw new FormatException(
                $"before line {lineNumber}: schema entry {entry.Kind} at IL offset {entry.IlOffset} has {found} values, expected {expected}");
        }
    }

    private static long HeaderField(string line, string name, int lineNumber)
    {
        var value = Field(line, name, lineNumber);
        return value.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
            ? long.Parse(value.AsSpan(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture)
            : long.Parse(value, CultureInfo.InvariantCulture);
    }

    private static long SchemaField(string line, string name, int lineNumber) =>
        long.Parse(Field(line, name, lineNumber), CultureInfo.InvariantCulture);

    private static string Field(string line, string name, int lineNumber)
    {
        var parts = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var at = Array.IndexOf(parts, name);
        if (at < 0 || at + 1 >= parts.Length)
        {
            throw new FormatException($"line {lineNumber}: no {name} in '{line}'");
        }

        return parts[at + 1];
    }
}

/// <summary>One method's record: the runtime's name for it, its IL size (a check on the resolved method), its schema.</summary>
internal sealed class ProfiledMethod
{
    /// <summary>The declaring type, instantiated (<c>Ns.Type`1[System.__Canon]</c>, nested with <c>+</c>), a dot, the method's name.</summary>
    public string Name { get; set; } = "";

    /// <summary>The signature as the runtime prints it (<c>instance bool  (!0,int32)</c>); <c>generic</c> marks a generic method.</summary>
    public string Signature { get; set; } = "";

    public int IlSize { get; init; }

    public List<SchemaEntry> Schema { get; } = [];

    /// <summary>A generic method's record does not say which instantiation it was, so it cannot be named in a profile. An
    /// instance method's signature has <c>instance</c> before the mark (<c>instance generic !!0  (int32)</c>).</summary>
    public bool IsGenericMethod => Signature.StartsWith("generic ", StringComparison.Ordinal) || Signature.StartsWith("instance generic ", StringComparison.Ordinal);

    /// <summary>The parameter count from the printed signature: the top-level commas between its parentheses.</summary>
    public int ParameterCount
    {
        get
        {
            var open = Signature.IndexOf('(', StringComparison.Ordinal);
            var close = Signature.LastIndexOf(')');
            if (open < 0 || close <= open + 1)
            {
                return 0;
            }

            var count = 1;
            var depth = 0;
            foreach (var c in Signature.AsSpan(open + 1, close - open - 1))
            {
                depth += c is '<' or '[' or '(' ? 1 : c is '>' or ']' or ')' ? -1 : 0;
                count += c == ',' && depth == 0 ? 1 : 0;
            }

            return count;
        }
    }

    public long TotalCount
    {
        get
        {
            long total = 0;
            foreach (var entry in Schema)
            {
                foreach (var value in entry.Values)
                {
                    total += value;
                }
            }

            return total;
        }
    }
}

/// <summary>One schema entry and its values, as the runtime's JIT laid it out for the method's IL.</summary>
internal sealed class SchemaEntry
{
    public PgoKind Kind { get; init; }

    public int IlOffset { get; init; }

    public int Count { get; init; }

    public int Other { get; init; }

    /// <summary>Values the reader could not read for certain (see <see cref="TextProfile"/>): the entry is left out.</summary>
    public bool Unreadable { get; set; }

    /// <summary>Counter values (four- or eight-byte kinds).</summary>
    public List<long> Values { get; } = [];

    /// <summary>Type or method handles of a histogram, as the runtime names them (<c>NULL</c>, <c>UNKNOWN</c>, or a name).</summary>
    public List<string> Handles { get; } = [];
}

/// <summary>
/// The instrumentation kinds, as the JIT interface numbers them (corjit.h's <c>PgoInstrumentationKind</c>): the low
/// four bits say how each value is stored, the rest what the entry is. Only the storage matters to a converter.
/// </summary>
internal enum PgoKind
{
    None = 0,
    FourByte = 1,
    EightByte = 2,
    TypeHandle = 3,
    MethodHandle = 4,
    MarshalMask = 0xF,
}

internal static class PgoKindExtensions
{
    public static PgoKind Marshal(this PgoKind kind) => kind & PgoKind.MarshalMask;
}
