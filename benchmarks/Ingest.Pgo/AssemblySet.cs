using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace Ingest.Pgo;

/// <summary>
/// The assemblies a profile was collected with (the service's folder and the shared frameworks it ran on), read with
/// System.Reflection.Metadata and indexed by type name, so the runtime's printed names resolve to definitions. An
/// assembly found in two folders is taken from the first, as the host's probing would.
/// </summary>
internal sealed class AssemblySet : IDisposable
{
    private readonly List<PEReader> _readers = [];
    private readonly Dictionary<string, SourceAssembly> _byName = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, List<TypeDef>> _types = new(StringComparer.Ordinal);

    public AssemblySet(IEnumerable<string> folders)
    {
        foreach (var folder in folders)
        {
            foreach (var file in Directory.EnumerateFiles(folder, "*.dll").Order(StringComparer.Ordinal))
            {
                Add(file);
            }
        }
    }

    public int Count => _byName.Count;

    public SourceAssembly? Find(string assemblyName) => _byName.GetValueOrDefault(assemblyName);

    /// <summary>Every definition of a type by its full name (<c>Ns.Outer+Inner`1</c>); more than one when several assemblies carry a copy of an internal type.</summary>
    public IReadOnlyList<TypeDef> FindTypes(string fullName) =>
        _types.TryGetValue(fullName, out var found) ? found : [];

    public void Dispose()
    {
        foreach (var reader in _readers)
        {
            reader.Dispose();
        }
    }

    private void Add(string file)
    {
        var reader = new PEReader(File.OpenRead(file));
        if (!reader.HasMetadata)
        {
            reader.Dispose();
            return;
        }

        var metadata = reader.GetMetadataReader();
        if (!metadata.IsAssembly)
        {
            reader.Dispose();
            return;
        }

        var name = metadata.GetString(metadata.GetAssemblyDefinition().Name);
        if (_byName.ContainsKey(name))
        {
            reader.Dispose();
            return;
        }

        _readers.Add(reader);
        var assembly = new SourceAssembly(name, reader, metadata);
        _byName.Add(name, assembly);
        foreach (var handle in metadata.TypeDefinitions)
        {
            var type = new TypeDef(assembly, handle);
            if (!_types.TryGetValue(type.FullName, out var list))
            {
                _types.Add(type.FullName, list = []);
            }

            list.Add(type);
        }
    }
}

/// <summary>One assembly of the set: its name, its metadata and its method bodies.</summary>
internal sealed class SourceAssembly(string name, PEReader reader, MetadataReader metadata)
{
    public string Name { get; } = name;

    public MetadataReader Metadata { get; } = metadata;

    public AssemblyName Identity { get; } = metadata.GetAssemblyDefinition().GetAssemblyName();

    /// <summary>The size of a method's IL, or -1 for a method without a body (abstract, extern, runtime-implemented).</summary>
    public int IlSize(MethodDefinitionHandle handle)
    {
        var rva = Metadata.GetMethodDefinition(handle).RelativeVirtualAddress;
        return rva == 0 ? -1 : reader.GetMethodBody(rva).GetILReader().Length;
    }
}

/// <summary>A type definition and the assembly that holds it.</summary>
internal sealed class TypeDef
{
    public TypeDef(SourceAssembly assembly, TypeDefinitionHandle handle)
    {
        Assembly = assembly;
        Handle = handle;
        var metadata = assembly.Metadata;
        var definition = metadata.GetTypeDefinition(handle);
        Name = metadata.GetString(definition.Name);
        Namespace = metadata.GetString(definition.Namespace);
        var declaring = definition.GetDeclaringType();
        Declaring = declaring.IsNil ? null : new TypeDef(assembly, declaring);
        FullName = Declaring is null
            ? Namespace.Length == 0 ? Name : Namespace + "." + Name
            : Declaring.FullName + "+" + Name;
        GenericArity = definition.GetGenericParameters().Count;
        IsValueType = IsValueTypeDefinition(metadata, definition, FullName);
    }

    public SourceAssembly Assembly { get; }

    public TypeDefinitionHandle Handle { get; }

    public string Name { get; }

    /// <summary>The namespace of a top-level type; empty for a nested one (its outer type carries it).</summary>
    public string Namespace { get; }

    public TypeDef? Declaring { get; }

    public string FullName { get; }

    /// <summary>Generic parameters, the outer types' included (a nested type of a generic type repeats them).</summary>
    public int GenericArity { get; }

    public bool IsValueType { get; }

    public IEnumerable<MethodDefinitionHandle> Methods(string name)
    {
        var metadata = Assembly.Metadata;
        foreach (var handle in metadata.GetTypeDefinition(Handle).GetMethods())
        {
            if (metadata.StringComparer.Equals(metadata.GetMethodDefinition(handle).Name, name))
            {
                yield return handle;
            }
        }
    }

    private static bool IsValueTypeDefinition(MetadataReader metadata, TypeDefinition definition, string fullName)
    {
        if (fullName is "System.Enum")
        {
            return false;
        }

        var baseType = definition.BaseType;
        if (baseType.IsNil)
        {
            return false;
        }

        var (ns, name) = baseType.Kind switch
        {
            HandleKind.TypeReference => NameOf(metadata, metadata.GetTypeReference((TypeReferenceHandle)baseType)),
            HandleKind.TypeDefinition => NameOf(metadata, metadata.GetTypeDefinition((TypeDefinitionHandle)baseType)),
            _ => ("", ""),
        };
        return ns == "System" && name is "ValueType" or "Enum";
    }

    private static (string, string) NameOf(MetadataReader metadata, TypeReference reference) =>
        (metadata.GetString(reference.Namespace), metadata.GetString(reference.Name));

    private static (string, string) NameOf(MetadataReader metadata, TypeDefinition definition) =>
        (metadata.GetString(definition.Namespace), metadata.GetString(definition.Name));
}
