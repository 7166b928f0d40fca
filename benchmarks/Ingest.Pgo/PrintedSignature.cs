using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Text;
using System.Text.RegularExpressions;

namespace Ingest.Pgo;

/// <summary>
/// Parameter lists compared the way the runtime prints them (<c>(class System.String,!0&amp;,int32)</c>), reduced to a form
/// both sides can be brought to: types by their own name (no namespace, no <c>class</c> or <c>value class</c>), generic
/// parameters as <c>!n</c> / <c>!!n</c>, primitives by the runtime's keyword for them (<c>wchar</c>, <c>int</c> for a
/// native integer), no spaces. Used only to tell overloads apart
/// that have the same name, IL size and parameter count.
/// </summary>
internal static partial class PrintedSignature
{
    /// <summary>The printed signature's parameter list, reduced.</summary>
    public static string Parameters(string printed)
    {
        var open = printed.IndexOf('(', StringComparison.Ordinal);
        var close = printed.LastIndexOf(')');
        var list = open < 0 || close < open ? "" : printed[(open + 1)..close];
        list = Modifier().Replace(list, "");
        list = ClassKeyword().Replace(list, "");
        list = Namespace().Replace(list, "");
        return list.Replace(" ", "", StringComparison.Ordinal);
    }

    /// <summary>A method definition's parameter list, in the same reduced form.</summary>
    public static string Parameters(MetadataReader metadata, MethodDefinitionHandle method)
    {
        var signature = metadata.GetMethodDefinition(method).DecodeSignature(new Reducer(metadata), genericContext: null);
        return string.Join(",", signature.ParameterTypes);
    }

    [GeneratedRegex(@"mod(req|opt)\([^)]*\)\s*")]
    private static partial Regex Modifier();

    [GeneratedRegex(@"\b(value\s+)?class\s+")]
    private static partial Regex ClassKeyword();

    [GeneratedRegex(@"\b[A-Za-z_][\w]*\.(?=[A-Za-z_<])")]
    private static partial Regex Namespace();

    private sealed class Reducer(MetadataReader metadata) : ISignatureTypeProvider<string, object?>
    {
        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => typeCode switch
        {
            PrimitiveTypeCode.Void => "void",
            PrimitiveTypeCode.Boolean => "bool",
            PrimitiveTypeCode.Char => "wchar",
            PrimitiveTypeCode.SByte => "int8",
            PrimitiveTypeCode.Byte => "unsignedint8",
            PrimitiveTypeCode.Int16 => "int16",
            PrimitiveTypeCode.UInt16 => "unsignedint16",
            PrimitiveTypeCode.Int32 => "int32",
            PrimitiveTypeCode.UInt32 => "unsignedint32",
            PrimitiveTypeCode.Int64 => "int64",
            PrimitiveTypeCode.UInt64 => "unsignedint64",
            PrimitiveTypeCode.Single => "float32",
            PrimitiveTypeCode.Double => "float64",
            PrimitiveTypeCode.IntPtr => "int",
            PrimitiveTypeCode.UIntPtr => "unsignedint",
            PrimitiveTypeCode.String => "String",
            PrimitiveTypeCode.Object => "Object",
            PrimitiveTypeCode.TypedReference => "typedref",
            _ => typeCode.ToString(),
        };

        public string GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) =>
            metadata.GetString(metadata.GetTypeDefinition(handle).Name);

        public string GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind) =>
            metadata.GetString(metadata.GetTypeReference(handle).Name);

        public string GetTypeFromSpecification(MetadataReader reader, object? genericContext, TypeSpecificationHandle handle, byte rawTypeKind) =>
            metadata.GetTypeSpecification(handle).DecodeSignature(this, genericContext);

        public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments) =>
            genericType + "<" + string.Join(",", typeArguments) + ">";

        public string GetGenericTypeParameter(object? genericContext, int index) => "!" + index;

        public string GetGenericMethodParameter(object? genericContext, int index) => "!!" + index;

        public string GetArrayType(string elementType, ArrayShape shape) =>
            elementType + "[" + new StringBuilder().Append(',', shape.Rank - 1) + "]";

        public string GetSZArrayType(string elementType) => elementType + "[]";

        public string GetByReferenceType(string elementType) => elementType + "&";

        public string GetPointerType(string elementType) => elementType + "*";

        public string GetPinnedType(string elementType) => elementType;

        public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) => unmodifiedType;

        public string GetFunctionPointerType(MethodSignature<string> signature) => "method";
    }
}
