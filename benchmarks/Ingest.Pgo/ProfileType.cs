using System.Reflection.Metadata;

namespace Ingest.Pgo;

/// <summary>A type as a profile names it: what a method's declaring type or a histogram's entry resolved to.</summary>
internal abstract record ProfileType;

/// <summary>A type definition, non-generic or a generic one's definition.</summary>
internal sealed record DefinedType(TypeDef Definition) : ProfileType;

/// <summary>A generic type with its arguments, <c>System.__Canon</c> standing for any reference type in shared code.</summary>
internal sealed record InstantiatedType(TypeDef Definition, IReadOnlyList<ProfileType> Arguments) : ProfileType;

/// <summary>A type the signature format has an element code for (<c>int32</c>, <c>string</c>, <c>object</c>…).</summary>
internal sealed record PrimitiveType(SignatureTypeCode Code, string Name) : ProfileType;

/// <summary>The placeholder for any reference type in shared generic code, which the compiler resolves itself.</summary>
internal sealed record CanonType : ProfileType;

/// <summary>An array: <see cref="Rank"/> 0 is a single-dimension, zero-based one (<c>T[]</c>).</summary>
internal sealed record ArrayType(ProfileType Element, int Rank) : ProfileType;

internal sealed record PointerType(ProfileType Element) : ProfileType;

internal sealed record ByRefType(ProfileType Element) : ProfileType;
