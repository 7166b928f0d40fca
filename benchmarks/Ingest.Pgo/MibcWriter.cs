using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace Ingest.Pgo;

/// <summary>
/// Writes a .mibc: a metadata-only assembly whose method bodies are the profile, in the form the ReadyToRun and
/// Native AOT compilers parse (their <c>MIbcProfileParser</c>). A global method <c>AssemblyDictionary</c> names one
/// group method a defining assembly (<c>ldstr "name;…"</c>, <c>ldtoken group</c>, <c>pop</c>); each group's IL lists
/// its methods: <c>ldtoken method</c>, <c>ldstr "InstrumentationDataStart"</c>, the schema as integers (for each entry
/// a field mask, IL offset, kind, count, other, then its values; a histogram's types and methods as tokens),
/// <c>ldstr "InstrumentationDataEnd"</c>, <c>pop</c>. Methods and types are references by name and signature into
/// the assemblies the compiler is given, so the profile applies to whatever build of those assemblies has the
/// same methods.
/// </summary>
internal sealed class MibcWriter
{
    // The field mask before every entry: IL offset, kind, count and other, all given (the parser's
    // InstrumentationDataProcessingState bits), so no entry depends on the one before it.
    private const int AllFields = 0xF;
    private const string CanonAssembly = "System.Private.Canon";
    private const string CoreLib = "System.Private.CoreLib";

    private readonly MetadataBuilder _metadata = new();
    private readonly AssemblySet _assemblies;
    private readonly Dictionary<string, AssemblyReferenceHandle> _assemblyRefs = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<(EntityHandle Scope, string Namespace, string Name), TypeReferenceHandle> _typeRefs = [];
    private readonly Dictionary<string, TypeSpecificationHandle> _typeSpecs = new(StringComparer.Ordinal);
    private readonly Dictionary<(EntityHandle Parent, string Name, string Signature), MemberReferenceHandle> _memberRefs = [];
    private readonly SortedDictionary<string, Group> _groups = new(StringComparer.Ordinal);

    public MibcWriter(AssemblySet assemblies)
    {
        _assemblies = assemblies;
    }

    public int MethodCount { get; private set; }

    /// <summary>The token of a type, for a histogram entry or a method's declaring type.</summary>
    public EntityHandle Type(ProfileType type) => type switch
    {
        DefinedType defined => TypeRef(defined.Definition),
        PrimitiveType primitive => TypeRef(AssemblyRef(CoreLib), "System", primitive.Name),
        CanonType => TypeRef(AssemblyRef(CanonAssembly), "System", "__Canon"),
        _ => TypeSpec(type),
    };

    /// <summary>A reference to a method of <paramref name="declaring"/> (an instantiation of its definition, or the definition), with the definition's signature.</summary>
    public EntityHandle Method(ProfileType declaring, SourceAssembly source, MethodDefinitionHandle handle)
    {
        var definition = source.Metadata.GetMethodDefinition(handle);
        var signature = new BlobBuilder();
        var reader = source.Metadata.GetBlobReader(definition.Signature);
        CopyMethodSignature(ref reader, signature, source);
        var parent = Type(declaring);
        var name = source.Metadata.GetString(definition.Name);
        var key = (parent, name, Convert.ToBase64String(signature.ToArray()));
        if (!_memberRefs.TryGetValue(key, out var reference))
        {
            reference = _metadata.AddMemberReference(parent, _metadata.GetOrAddString(name), _metadata.GetOrAddBlob(signature));
            _memberRefs.Add(key, reference);
        }

        return reference;
    }

    /// <summary>Adds a method's profile to the group of the assembly that defines it.</summary>
    public void Add(string definingAssembly, EntityHandle method, IReadOnlyList<ResolvedEntry> schema)
    {
        if (!_groups.TryGetValue(definingAssembly, out var group))
        {
            _groups.Add(definingAssembly, group = new Group());
        }

        var il = group.Il;
        LoadToken(il, method);
        il.LoadString(_metadata.GetOrAddUserString("InstrumentationDataStart"));
        foreach (var entry in schema)
        {
            il.LoadConstantI4(AllFields);
            il.LoadConstantI4(entry.Entry.IlOffset);
            il.LoadConstantI4((int)entry.Entry.Kind);
            il.LoadConstantI4(entry.Entry.Count);
            il.LoadConstantI4(entry.Entry.Other);
            switch (entry.Entry.Kind.Marshal())
            {
                case PgoKind.FourByte:
                    foreach (var value in entry.Entry.Values)
                    {
                        il.LoadConstantI4(unchecked((int)value));
                    }

                    break;
                case PgoKind.EightByte:
                    foreach (var value in entry.Entry.Values)
                    {
                        il.LoadConstantI8(value);
                    }

                    break;
                case PgoKind.TypeHandle or PgoKind.MethodHandle:
                    foreach (var handle in entry.Handles)
                    {
                        // A resolved type or method is a token; null an empty slot; an unknown one a small number
                        // (a token of table 0), which the parser keeps as "some other type".
                        if (handle.Token is { } token)
                        {
                            LoadToken(il, token);
                        }
                        else
                        {
                            il.LoadConstantI4(handle.Unknown);
                        }
                    }

                    break;
            }
        }

        il.LoadString(_metadata.GetOrAddUserString("InstrumentationDataEnd"));
        il.OpCode(ILOpCode.Pop);
        MethodCount++;
    }

    public void Write(Stream output, string name)
    {
        var bodies = new MethodBodyStreamEncoder(new BlobBuilder());
        var signature = new BlobBuilder();
        new BlobEncoder(signature).MethodSignature().Parameters(0, r => r.Void(), _ => { });
        var voidSignature = _metadata.GetOrAddBlob(signature);

        var dictionary = new InstructionEncoder(new BlobBuilder());
        var groupBodies = new List<(string Name, int Offset)>();
        var groupIndex = 0;
        foreach (var (assembly, group) in _groups)
        {
            group.Il.OpCode(ILOpCode.Ret);
            groupBodies.Add(("Assembly_" + assembly, AddBody(bodies, group.Il)));
            // The group's name: the defining assembly, then (after ';') any others its entries need — none are
            // required by a Native AOT compilation, where every assembly is in the one version bubble.
            dictionary.LoadString(_metadata.GetOrAddUserString(assembly + ";"));
            // The group methods follow AssemblyDictionary (row 1) in the method table.
            LoadToken(dictionary, MetadataTokens.MethodDefinitionHandle(2 + groupIndex++));
            dictionary.OpCode(ILOpCode.Pop);
        }

        dictionary.OpCode(ILOpCode.Ret);
        var dictionaryBody = AddBody(bodies, dictionary);

        _metadata.AddModule(0, _metadata.GetOrAddString(name + ".dll"), _metadata.GetOrAddGuid(Guid.NewGuid()), default, default);
        _metadata.AddAssembly(_metadata.GetOrAddString(name), new Version(1, 0, 0, 0), default, default, 0, AssemblyHashAlgorithm.None);
        const MethodAttributes Global = MethodAttributes.Public | MethodAttributes.Static;
        var first = _metadata.AddMethodDefinition(Global, MethodImplAttributes.IL, _metadata.GetOrAddString("AssemblyDictionary"), voidSignature, dictionaryBody, default);
        foreach (var (groupName, offset) in groupBodies)
        {
            _metadata.AddMethodDefinition(Global, MethodImplAttributes.IL, _metadata.GetOrAddString(groupName), voidSignature, offset, default);
        }

        _metadata.AddTypeDefinition(default, default, _metadata.GetOrAddString("<Module>"), default, MetadataTokens.FieldDefinitionHandle(1), first);

        var pe = new ManagedPEBuilder(
            new PEHeaderBuilder(imageCharacteristics: Characteristics.Dll | Characteristics.ExecutableImage),
            new MetadataRootBuilder(_metadata),
            bodies.Builder,
            flags: CorFlags.ILOnly,
            deterministicIdProvider: content => new BlobContentId(Guid.Empty, 0x4D494243));
        var image = new BlobBuilder();
        pe.Serialize(image);
        image.WriteContentTo(output);
    }

    private static void LoadToken(InstructionEncoder il, EntityHandle token)
    {
        il.OpCode(ILOpCode.Ldtoken);
        il.Token(token);
    }

    private static int AddBody(MethodBodyStreamEncoder bodies, InstructionEncoder il) =>
        // The bodies are data, never run: they push without popping, so the stack bound is nominal.
        bodies.AddMethodBody(il, maxStack: 8, localVariablesSignature: default, attributes: MethodBodyAttributes.None);

    private AssemblyReferenceHandle AssemblyRef(string name)
    {
        if (_assemblyRefs.TryGetValue(name, out var handle))
        {
            return handle;
        }

        var identity = _assemblies.Find(name)?.Identity;
        var token = identity?.GetPublicKeyToken();
        handle = _metadata.AddAssemblyReference(
            _metadata.GetOrAddString(name),
            identity?.Version ?? new Version(0, 0, 0, 0),
            default,
            token is { Length: > 0 } ? _metadata.GetOrAddBlob(token) : default,
            default,
            default);
        _assemblyRefs.Add(name, handle);
        return handle;
    }

    private TypeReferenceHandle TypeRef(TypeDef definition) =>
        definition.Declaring is { } declaring
            ? TypeRef(TypeRef(declaring), "", definition.Name)
            : TypeRef(AssemblyRef(definition.Assembly.Name), definition.Namespace, definition.Name);

    private TypeReferenceHandle TypeRef(EntityHandle scope, string ns, string name)
    {
        if (!_typeRefs.TryGetValue((scope, ns, name), out var handle))
        {
            handle = _metadata.AddTypeReference(scope, ns.Length == 0 ? default : _metadata.GetOrAddString(ns), _metadata.GetOrAddString(name));
            _typeRefs.Add((scope, ns, name), handle);
        }

        return handle;
    }

    private TypeSpecificationHandle TypeSpec(BlobBuilder signature)
    {
        var key = Convert.ToBase64String(signature.ToArray());
        if (!_typeSpecs.TryGetValue(key, out var handle))
        {
            handle = _metadata.AddTypeSpecification(_metadata.GetOrAddBlob(signature));
            _typeSpecs.Add(key, handle);
        }

        return handle;
    }

    private TypeSpecificationHandle TypeSpec(ProfileType type)
    {
        var signature = new BlobBuilder();
        Encode(type, signature);
        return TypeSpec(signature);
    }

    private void Encode(ProfileType type, BlobBuilder signature)
    {
        switch (type)
        {
            case PrimitiveType primitive:
                signature.WriteByte((byte)primitive.Code);
                break;
            case CanonType or DefinedType:
                var isValueType = type is DefinedType { Definition.IsValueType: true };
                signature.WriteByte((byte)(isValueType ? SignatureTypeKind.ValueType : SignatureTypeKind.Class));
                signature.WriteCompressedInteger(CodedIndex.TypeDefOrRefOrSpec(Type(type)));
                break;
            case InstantiatedType generic:
                signature.WriteByte((byte)SignatureTypeCode.GenericTypeInstance);
                signature.WriteByte((byte)(generic.Definition.IsValueType ? SignatureTypeKind.ValueType : SignatureTypeKind.Class));
                signature.WriteCompressedInteger(CodedIndex.TypeDefOrRefOrSpec(TypeRef(generic.Definition)));
                signature.WriteCompressedInteger(generic.Arguments.Count);
                foreach (var argument in generic.Arguments)
                {
                    Encode(argument, signature);
                }

                break;
            case ComposedType composed:
                signature.WriteByte((byte)composed.Code);
                Encode(composed.Element, signature);
                break;
            case ArrayType array:
                signature.WriteByte((byte)SignatureTypeCode.Array);
                Encode(array.Element, signature);
                signature.WriteCompressedInteger(array.Rank);
                signature.WriteCompressedInteger(0);
                signature.WriteCompressedInteger(0);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(type), type, "not a type a profile names");
        }
    }

    // A method's signature from its defining assembly, byte for byte, with every type token in it re-made as a
    // reference from the profile (ECMA-335 II.23.2).
    private void CopyMethodSignature(ref BlobReader reader, BlobBuilder output, SourceAssembly source)
    {
        var header = reader.ReadByte();
        output.WriteByte(header);
        if ((header & (byte)SignatureAttributes.Generic) != 0)
        {
            output.WriteCompressedInteger(reader.ReadCompressedInteger());
        }

        var parameters = reader.ReadCompressedInteger();
        output.WriteCompressedInteger(parameters);
        for (var i = 0; i <= parameters; i++)
        {
            CopyType(ref reader, output, source);
        }
    }

    private void CopyType(ref BlobReader reader, BlobBuilder output, SourceAssembly source)
    {
        var code = reader.ReadByte();
        output.WriteByte(code);
        switch ((SignatureTypeCode)code)
        {
            case SignatureTypeCode.Pointer or SignatureTypeCode.ByReference or SignatureTypeCode.SZArray
                or SignatureTypeCode.Pinned or SignatureTypeCode.Sentinel:
                CopyType(ref reader, output, source);
                break;
            case SignatureTypeCode.RequiredModifier or SignatureTypeCode.OptionalModifier:
                CopyTypeToken(ref reader, output, source);
                CopyType(ref reader, output, source);
                break;
            case (SignatureTypeCode)SignatureTypeKind.Class or (SignatureTypeCode)SignatureTypeKind.ValueType:
                CopyTypeToken(ref reader, output, source);
                break;
            case SignatureTypeCode.GenericTypeParameter or SignatureTypeCode.GenericMethodParameter:
                output.WriteCompressedInteger(reader.ReadCompressedInteger());
                break;
            case SignatureTypeCode.GenericTypeInstance:
                output.WriteByte(reader.ReadByte());
                CopyTypeToken(ref reader, output, source);
                var arguments = reader.ReadCompressedInteger();
                output.WriteCompressedInteger(arguments);
                for (var i = 0; i < arguments; i++)
                {
                    CopyType(ref reader, output, source);
                }

                break;
            case SignatureTypeCode.Array:
                CopyType(ref reader, output, source);
                output.WriteCompressedInteger(reader.ReadCompressedInteger());
                var sizes = reader.ReadCompressedInteger();
                output.WriteCompressedInteger(sizes);
                for (var i = 0; i < sizes; i++)
                {
                    output.WriteCompressedInteger(reader.ReadCompressedInteger());
                }

                var bounds = reader.ReadCompressedInteger();
                output.WriteCompressedInteger(bounds);
                for (var i = 0; i < bounds; i++)
                {
                    output.WriteCompressedSignedInteger(reader.ReadCompressedSignedInteger());
                }

                break;
            case SignatureTypeCode.FunctionPointer:
                CopyMethodSignature(ref reader, output, source);
                break;
            default:
                // Primitives, string, object, typedref: the code is the whole type.
                break;
        }
    }

    private void CopyTypeToken(ref BlobReader reader, BlobBuilder output, SourceAssembly source) =>
        output.WriteCompressedInteger(CodedIndex.TypeDefOrRefOrSpec(Translate(reader.ReadTypeHandle(), source)));

    private EntityHandle Translate(EntityHandle handle, SourceAssembly source)
    {
        var metadata = source.Metadata;
        switch (handle.Kind)
        {
            case HandleKind.TypeDefinition:
                return TypeRef(new TypeDef(source, (TypeDefinitionHandle)handle));
            case HandleKind.TypeReference:
                var reference = metadata.GetTypeReference((TypeReferenceHandle)handle);
                var scope = reference.ResolutionScope;
                EntityHandle translatedScope = scope.Kind switch
                {
                    HandleKind.AssemblyReference => AssemblyRef(metadata.GetString(metadata.GetAssemblyReference((AssemblyReferenceHandle)scope).Name)),
                    HandleKind.TypeReference => Translate(scope, source),
                    _ => AssemblyRef(source.Name),
                };
                return TypeRef(translatedScope, metadata.GetString(reference.Namespace), metadata.GetString(reference.Name));
            case HandleKind.TypeSpecification:
                var reader = metadata.GetBlobReader(metadata.GetTypeSpecification((TypeSpecificationHandle)handle).Signature);
                var signature = new BlobBuilder();
                CopyType(ref reader, signature, source);
                return TypeSpec(signature);
            default:
                throw new BadImageFormatException($"a type token of kind {handle.Kind} in a signature of {source.Name}");
        }
    }

    private sealed class Group
    {
        public InstructionEncoder Il { get; } = new(new BlobBuilder());
    }
}

/// <summary>A schema entry with its histogram's handles resolved to tokens of the profile (or left unknown).</summary>
internal sealed record ResolvedEntry(SchemaEntry Entry, IReadOnlyList<ResolvedHandle> Handles);

/// <summary>A histogram slot: a token, or no token and <see cref="Unknown"/> (0 for an empty slot, a small number for a type the profile cannot name).</summary>
internal readonly record struct ResolvedHandle(EntityHandle? Token, int Unknown);
