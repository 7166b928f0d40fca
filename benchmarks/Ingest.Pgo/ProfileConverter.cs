using System.Reflection.Metadata;

namespace Ingest.Pgo;

/// <summary>
/// Resolves the runtime's text profile against the assemblies it was collected with and writes the .mibc. A record
/// is kept only when its method is found with the same IL size the runtime instrumented (so the counts fit the IL
/// the compiler will see); generic methods are left out (the text does not say which instantiation a record is), as
/// are names that fit more than one method of one assembly (copies of one internal type in several assemblies each get
/// the record). What was left out, and why, is counted in the result.
/// </summary>
internal sealed class ProfileConverter(AssemblySet assemblies)
{
    private static readonly Dictionary<string, SignatureTypeCode> Primitives = new(StringComparer.Ordinal)
    {
        ["System.Boolean"] = SignatureTypeCode.Boolean,
        ["System.Char"] = SignatureTypeCode.Char,
        ["System.SByte"] = SignatureTypeCode.SByte,
        ["System.Byte"] = SignatureTypeCode.Byte,
        ["System.Int16"] = SignatureTypeCode.Int16,
        ["System.UInt16"] = SignatureTypeCode.UInt16,
        ["System.Int32"] = SignatureTypeCode.Int32,
        ["System.UInt32"] = SignatureTypeCode.UInt32,
        ["System.Int64"] = SignatureTypeCode.Int64,
        ["System.UInt64"] = SignatureTypeCode.UInt64,
        ["System.Single"] = SignatureTypeCode.Single,
        ["System.Double"] = SignatureTypeCode.Double,
        ["System.IntPtr"] = SignatureTypeCode.IntPtr,
        ["System.UIntPtr"] = SignatureTypeCode.UIntPtr,
        ["System.String"] = SignatureTypeCode.String,
        ["System.Object"] = SignatureTypeCode.Object,
    };

    private readonly Dictionary<string, int> _unknown = new(StringComparer.Ordinal);

    public ConversionResult Convert(IReadOnlyList<ProfiledMethod> methods, MibcWriter writer)
    {
        var result = new ConversionResult { Records = methods.Count };
        var chosen = new Dictionary<EntityHandle, (ProfiledMethod Record, string Assembly)>();
        foreach (var record in methods)
        {
            var (outcome, resolved) = Resolve(record, writer);
            result.Count(outcome, record.Name);
            foreach (var (token, assembly) in resolved)
            {
                // The runtime may have instrumented a method twice (tiers, rejit): keep the record that saw the most.
                if (!chosen.TryGetValue(token, out var previous) || previous.Record.TotalCount < record.TotalCount)
                {
                    chosen[token] = (record, assembly);
                }
            }
        }

        foreach (var (token, (record, assembly)) in chosen)
        {
            var schema = new List<ResolvedEntry>(record.Schema.Count);
            foreach (var entry in record.Schema)
            {
                if (entry.Unreadable)
                {
                    continue;
                }

                var handles = new List<ResolvedHandle>(entry.Handles.Count);
                foreach (var handle in entry.Handles)
                {
                    var resolved = entry.Kind.Marshal() == PgoKind.MethodHandle ? ResolveMethodHandle(handle, writer) : ResolveTypeHandle(handle, writer);
                    result.CountHandle(resolved);
                    handles.Add(resolved);
                }

                schema.Add(new ResolvedEntry(entry, handles));
            }

            writer.Add(assembly, token, schema);
        }

        result.Methods = chosen.Count;
        return result;
    }

    private (Outcome, IReadOnlyList<(EntityHandle Token, string Assembly)>) Resolve(ProfiledMethod record, MibcWriter writer)
    {
        if (record.IsGenericMethod)
        {
            return (Outcome.GenericMethod, []);
        }

        var sawType = false;
        var sawMethod = false;
        foreach (var (typeText, methodName) in Splits(record.Name))
        {
            PrintedTypeName printed;
            try
            {
                printed = PrintedTypeName.Parse(typeText);
            }
            catch (FormatException)
            {
                continue;
            }

            if (printed.Suffixes.Count > 0)
            {
                continue;
            }

            var matches = new List<(TypeDef Type, MethodDefinitionHandle Method)>();
            foreach (var type in assemblies.FindTypes(printed.Definition))
            {
                sawType = true;
                foreach (var method in type.Methods(methodName))
                {
                    sawMethod = true;
                    if (type.Assembly.IlSize(method) == record.IlSize && ParameterCount(type.Assembly, method) == record.ParameterCount)
                    {
                        matches.Add((type, method));
                    }
                }
            }

            if (matches.Count > 1)
            {
                // Overloads of one size and arity: the printed parameter types tell them apart.
                var parameters = PrintedSignature.Parameters(record.Signature);
                matches = matches.FindAll(m => PrintedSignature.Parameters(m.Type.Assembly.Metadata, m.Method) == parameters);
                if (matches.Count > 1 && !InDistinctAssemblies(matches))
                {
                    return (Outcome.Ambiguous, []);
                }
            }

            if (matches.Count == 0)
            {
                continue;
            }

            // One method, or copies of one internal type's method (shared source compiled into several assemblies: same
            // name, signature and IL size; the runtime's name does not say which one ran): the profile goes to each.
            var resolved = new List<(EntityHandle, string)>(matches.Count);
            foreach (var (type, method) in matches)
            {
                if (Instantiate(type, printed.Arguments) is not { } declaring)
                {
                    return (Outcome.TypeNotFound, []);
                }

                resolved.Add((writer.Method(declaring, type.Assembly, method), type.Assembly.Name));
            }

            return (Outcome.Resolved, resolved);
        }

        return (sawMethod ? Outcome.IlDiffers : sawType ? Outcome.MethodNotFound : Outcome.TypeNotFound, []);
    }

    private static bool InDistinctAssemblies(List<(TypeDef Type, MethodDefinitionHandle Method)> matches) =>
        matches.Select(m => m.Type.Assembly.Name).Distinct(StringComparer.OrdinalIgnoreCase).Count() == matches.Count;

    // Where a printed method name splits into type and method: at a dot outside brackets, the constructors'
    // ".ctor" and ".cctor" keeping theirs; tried from the right, so an explicit implementation's dotted name
    // ("System.IDisposable.Dispose") is found too.
    private static IEnumerable<(string Type, string Method)> Splits(string name)
    {
        var depth = 0;
        var dots = new List<int>();
        for (var i = 0; i < name.Length; i++)
        {
            depth += name[i] switch { '[' => 1, ']' => -1, _ => 0 };
            if (name[i] == '.' && depth == 0 && i > 0 && name[i - 1] != '.')
            {
                dots.Add(i);
            }
        }

        for (var i = dots.Count - 1; i >= 0; i--)
        {
            var at = dots[i];
            yield return (name[..at], name[(at + 1)..]);
        }
    }

    private static int ParameterCount(SourceAssembly assembly, MethodDefinitionHandle method)
    {
        var reader = assembly.Metadata.GetBlobReader(assembly.Metadata.GetMethodDefinition(method).Signature);
        var header = reader.ReadSignatureHeader();
        if (header.IsGeneric)
        {
            reader.ReadCompressedInteger();
        }

        return reader.ReadCompressedInteger();
    }

    private ProfileType? Instantiate(TypeDef type, IReadOnlyList<PrintedTypeName> arguments)
    {
        if (arguments.Count != type.GenericArity)
        {
            return null;
        }

        if (arguments.Count == 0)
        {
            return new DefinedType(type);
        }

        var resolved = new ProfileType[arguments.Count];
        for (var i = 0; i < arguments.Count; i++)
        {
            if (ResolveType(arguments[i]) is not { } argument)
            {
                return null;
            }

            resolved[i] = argument;
        }

        return new InstantiatedType(type, resolved);
    }

    private ProfileType? ResolveType(PrintedTypeName printed)
    {
        ProfileType? type;
        if (printed.Definition == "System.__Canon")
        {
            type = new CanonType();
        }
        else if (Primitives.TryGetValue(printed.Definition, out var code) && printed.Arguments.Count == 0
                 && printed.Assembly is null or "System.Private.CoreLib")
        {
            type = new PrimitiveType(code, printed.Definition["System.".Length..]);
        }
        else
        {
            TypeDef? definition = null;
            foreach (var candidate in assemblies.FindTypes(printed.Definition))
            {
                if (printed.Assembly is not null && !string.Equals(candidate.Assembly.Name, printed.Assembly, StringComparison.OrdinalIgnoreCase))
                {
                    continue;
                }

                if (definition is not null)
                {
                    // Copies of one internal type in several assemblies, and the name does not say which.
                    return null;
                }

                definition = candidate;
            }

            type = definition is null ? null : Instantiate(definition, printed.Arguments);
        }

        foreach (var suffix in printed.Suffixes)
        {
            type = type is null ? null : suffix switch
            {
                "[]" => new ComposedType(SignatureTypeCode.SZArray, type),
                "*" => new ComposedType(SignatureTypeCode.Pointer, type),
                "&" => new ComposedType(SignatureTypeCode.ByReference, type),
                _ => new ArrayType(type, suffix.Count(c => c == ',') + 1),
            };
        }

        return type;
    }

    private ResolvedHandle ResolveTypeHandle(string text, MibcWriter writer)
    {
        if (text == "NULL")
        {
            return new ResolvedHandle(null, 0);
        }

        try
        {
            if (ResolveType(PrintedTypeName.Parse(text)) is { } type)
            {
                return new ResolvedHandle(writer.Type(type), 0);
            }
        }
        catch (FormatException)
        {
        }

        return new ResolvedHandle(null, UnknownNumber(text));
    }

    // "Name|@|Assembly-qualified declaring type": a delegate's target, for the delegate call's likely method.
    private ResolvedHandle ResolveMethodHandle(string text, MibcWriter writer)
    {
        if (text == "NULL")
        {
            return new ResolvedHandle(null, 0);
        }

        var separator = text.IndexOf("|@|", StringComparison.Ordinal);
        if (separator > 0)
        {
            try
            {
                var printed = PrintedTypeName.Parse(text[(separator + 3)..]);
                var name = text[..separator];
                foreach (var definition in assemblies.FindTypes(printed.Definition))
                {
                    if (printed.Assembly is not null && !string.Equals(definition.Assembly.Name, printed.Assembly, StringComparison.OrdinalIgnoreCase))
                    {
                        continue;
                    }

                    var methods = definition.Methods(name).Take(2).ToList();
                    if (methods.Count == 1 && ResolveType(printed) is { } declaring)
                    {
                        return new ResolvedHandle(writer.Method(declaring, definition.Assembly, methods[0]), 0);
                    }
                }
            }
            catch (FormatException)
            {
            }
        }

        return new ResolvedHandle(null, UnknownNumber(text));
    }

    // A stable small number for each distinct name the profile cannot resolve (a token of no table), so two
    // slots holding the same unknown type still count as one type.
    private int UnknownNumber(string text)
    {
        if (!_unknown.TryGetValue(text, out var number))
        {
            _unknown.Add(text, number = _unknown.Count + 1);
        }

        return number;
    }
}

internal enum Outcome
{
    Resolved,
    GenericMethod,
    TypeNotFound,
    MethodNotFound,
    IlDiffers,
    Ambiguous,
}

/// <summary>What a conversion kept and what it left out.</summary>
internal sealed class ConversionResult
{
    private readonly Dictionary<Outcome, int> _outcomes = [];
    private readonly List<(string Method, Outcome Outcome)> _leftOut = [];

    public int Records { get; init; }

    /// <summary>Distinct methods written.</summary>
    public int Methods { get; set; }

    public int HandlesResolved { get; private set; }

    public int HandlesUnknown { get; private set; }

    public int this[Outcome outcome] => _outcomes.GetValueOrDefault(outcome);

    /// <summary>The records left out, by the runtime's name for their method, and why.</summary>
    public IReadOnlyList<(string Method, Outcome Outcome)> LeftOut => _leftOut;

    public void Count(Outcome outcome, string method)
    {
        _outcomes[outcome] = this[outcome] + 1;
        if (outcome != Outcome.Resolved)
        {
            _leftOut.Add((method, outcome));
        }
    }

    public void CountHandle(ResolvedHandle handle)
    {
        if (handle.Token is not null)
        {
            HandlesResolved++;
        }
        else if (handle.Unknown != 0)
        {
            HandlesUnknown++;
        }
    }

    public override string ToString() =>
        $"{Records} records: {this[Outcome.Resolved]} resolved ({Methods} methods written), {this[Outcome.GenericMethod]} generic methods, " +
        $"{this[Outcome.TypeNotFound]} types not found, {this[Outcome.MethodNotFound]} methods not found, " +
        $"{this[Outcome.IlDiffers]} with other IL, {this[Outcome.Ambiguous]} ambiguous; " +
        $"histogram entries: {HandlesResolved} resolved, {HandlesUnknown} unknown";
}
