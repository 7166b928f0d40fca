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

/// <summary>A type made of one other by its element code: a single-dimension, zero-based array (<c>T[]</c>), a pointer, a by-ref.</summary>
internal sealed record ComposedType(SignatureTypeCode Code, ProfileType Element) : ProfileType;

/// <summary>A multi-dimensional array (<c>T[,]</c>).</summary>
internal sealed record ArrayType(ProfileType Element, int Rank) : ProfileType;
