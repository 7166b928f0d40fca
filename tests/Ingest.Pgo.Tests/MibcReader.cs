using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace Ingest.Pgo.Tests;

/// <summary>
/// Reads a .mibc back the way the compilers' parser does (its format as documented in MIbcProfileParser: groups named
/// by AssemblyDictionary, methods as ldtoken, the schema as integers between two marker strings), written for the tests
/// without the converter's code, so a writer bug is not mirrored by its own reader.
/// </summary>
internal sealed class MibcReader
{
    private readonly MetadataReader _metadata;

    private MibcReader(MetadataReader metadata)
    {
        _metadata = metadata;
    }

    public static IReadOnlyList<MibcMethod> Read(string path)
    {
        using var pe = new PEReader(File.OpenRead(path));
        var metadata = pe.GetMetadataReader();
        var reader = new MibcReader(metadata);
        var dictionary = metadata.MethodDefinitions.Single(m => metadata.GetString(metadata.GetMethodDefinition(m).Name) == "AssemblyDictionary");
        var methods = new List<MibcMethod>();
        string? group = null;
        foreach (var (opcode, operand) in Instructions(pe, metadata, dictionary))
        {
            switch (opcode)
            {
                case ILOpCode.Ldstr:
                    group = metadata.GetUserString(MetadataTokens.UserStringHandle((int)operand));
                    break;
                case ILOpCode.Ldtoken:
                    Assert.NotNull(group);
                    methods.AddRange(reader.Group(pe, group, MetadataTokens.MethodDefinitionHandle((int)operand & 0xFFFFFF)));
                    break;
            }
        }

        return methods;
    }

    /// <summary>The parameter types of the profile's only method reference.</summary>
    public static string MemberParameters(string path)
    {
        using var pe = new PEReader(File.OpenRead(path));
        var metadata = pe.GetMetadataReader();
        var reference = metadata.GetMemberReference(metadata.MemberReferences.Single());
        return string.Join(",", reference.DecodeMethodSignature(new Printer(new MibcReader(metadata)), null).ParameterTypes);
    }

    private IEnumerable<MibcMethod> Group(PEReader pe, string group, MethodDefinitionHandle handle)
    {
        EntityHandle? method = null;
        List<long>? values = null;
        foreach (var (opcode, operand) in Instructions(pe, _metadata, handle))
        {
            switch (opcode)
            {
                case ILOpCode.Ldtoken when values is null:
                    method = MetadataTokens.EntityHandle((int)operand);
                    break;
                case ILOpCode.Ldstr:
                    var marker = _metadata.GetUserString(MetadataTokens.UserStringHandle((int)operand));
                    values = marker == "InstrumentationDataStart" ? [] : values;
                    if (marker == "InstrumentationDataEnd")
                    {
                        yield return new MibcMethod(group, Name(method!.Value), MemberName(method.Value), Schema(values!));
                        values = null;
                    }

                    break;
                case ILOpCode.Pop or ILOpCode.Ret:
                    break;
                default:
                    values!.Add(operand);
                    break;
            }
        }
    }

    // The parser's layout: a field mask, then the fields the mask names in the order IL offset, kind, count, other, then
    // the entry's values; this writer always gives all four.
    private List<MibcEntry> Schema(List<long> values)
    {
        var entries = new List<MibcEntry>();
        for (var i = 0; i < values.Count;)
        {
            Assert.Equal(0xF, values[i]);
            var (offset, kind, count, other) = ((int)values[i + 1], (int)values[i + 2], (int)values[i + 3], (int)values[i + 4]);
            i += 5;
            var data = new List<long>();
            var names = new List<string?>();
            var marshal = kind & 0xF;
            for (var n = 0; marshal != 0 && n < count; n++, i++)
            {
                if (marshal is 3 or 4)
                {
                    // A token (a table in its top byte), or a number for an empty (0) or unknown slot.
                    names.Add((values[i] & 0xFF000000) == 0 ? null : Name(MetadataTokens.EntityHandle((int)values[i])));
                    data.Add((values[i] & 0xFF000000) == 0 ? values[i] : -1);
                }
                else
                {
                    data.Add(values[i]);
                }
            }

            entries.Add(new MibcEntry(kind, offset, count, other, data, names));
        }

        return entries;
    }

    /// <summary>A method reference or type as the runtime prints it in its profile: <c>Ns.Type`1[System.__Canon].Method</c>.</summary>
    private string Name(EntityHandle handle) => handle.Kind switch
    {
        HandleKind.MemberReference => Name(_metadata.GetMemberReference((MemberReferenceHandle)handle).Parent) + "." + MemberName(handle),
        HandleKind.TypeReference => TypeName((TypeReferenceHandle)handle),
        HandleKind.TypeSpecification => _metadata.GetTypeSpecification((TypeSpecificationHandle)handle).DecodeSignature(new Printer(this), null),
        _ => throw new InvalidOperationException($"unexpected {handle.Kind} in a profile"),
    };

    private string MemberName(EntityHandle handle) =>
        handle.Kind == HandleKind.MemberReference ? _metadata.GetString(_metadata.GetMemberReference((MemberReferenceHandle)handle).Name) : "";

    private string TypeName(TypeReferenceHandle handle)
    {
        var reference = _metadata.GetTypeReference(handle);
        var name = _metadata.GetString(reference.Name);
        return reference.ResolutionScope.Kind == HandleKind.TypeReference
            ? TypeName((TypeReferenceHandle)reference.ResolutionScope) + "+" + name
            : reference.Namespace.IsNil ? name : _metadata.GetString(reference.Namespace) + "." + name;
    }

    private static IEnumerable<(ILOpCode OpCode, long Operand)> Instructions(PEReader pe, MetadataReader metadata, MethodDefinitionHandle handle)
    {
        var il = pe.GetMethodBody(metadata.GetMethodDefinition(handle).RelativeVirtualAddress).GetILReader();
        while (il.RemainingBytes > 0)
        {
            var opcode = (ILOpCode)il.ReadByte();
            yield return opcode switch
            {
                ILOpCode.Ldstr or ILOpCode.Ldtoken => (opcode, il.ReadInt32()),
                ILOpCode.Ldc_i4 => (opcode, il.ReadInt32()),
                ILOpCode.Ldc_i4_s => (opcode, il.ReadSByte()),
                ILOpCode.Ldc_i8 => (opcode, il.ReadInt64()),
                >= ILOpCode.Ldc_i4_m1 and <= ILOpCode.Ldc_i4_8 => (opcode, opcode - ILOpCode.Ldc_i4_0),
                ILOpCode.Pop or ILOpCode.Ret => (opcode, 0),
                _ => throw new InvalidOperationException($"opcode {opcode} in a profile's IL"),
            };
        }
    }

    private sealed class Printer(MibcReader reader) : ISignatureTypeProvider<string, object?>
    {
        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => "System." + typeCode;

        public string GetTypeFromDefinition(MetadataReader metadata, TypeDefinitionHandle handle, byte rawTypeKind) =>
            throw new InvalidOperationException("a profile defines no types");

        public string GetTypeFromReference(MetadataReader metadata, TypeReferenceHandle handle, byte rawTypeKind) => reader.TypeName(handle);

        public string GetTypeFromSpecification(MetadataReader metadata, object? genericContext, TypeSpecificationHandle handle, byte rawTypeKind) =>
            reader.Name(handle);

        public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments) =>
            genericType + "[" + string.Join(",", typeArguments) + "]";

        public string GetSZArrayType(string elementType) => elementType + "[]";

        public string GetArrayType(string elementType, ArrayShape shape) => elementType + "[" + new string(',', shape.Rank - 1) + "]";

        public string GetByReferenceType(string elementType) => elementType + "&";

        public string GetPointerType(string elementType) => elementType + "*";

        public string GetGenericTypeParameter(object? genericContext, int index) => "!" + index;

        public string GetGenericMethodParameter(object? genericContext, int index) => "!!" + index;

        public string GetPinnedType(string elementType) => elementType;

        public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) => unmodifiedType;

        public string GetFunctionPointerType(MethodSignature<string> signature) => "method";
    }
}

internal sealed record MibcMethod(string Group, string Name, string MemberName, IReadOnlyList<MibcEntry> Schema);

/// <summary>One schema entry as read back: counters in <see cref="Values"/>; for a histogram, each slot's type or method
/// name (null for an empty or unknown slot, whose number is then in <see cref="Values"/>).</summary>
internal sealed record MibcEntry(int Kind, int IlOffset, int Count, int Other, IReadOnlyList<long> Values, IReadOnlyList<string?> Names);
