using System.Diagnostics.CodeAnalysis;

namespace Ingest.Transports.Internal.Adapters;

/// <summary>Names the <see cref="TransportAdapter"/> an adapter assembly provides (one per assembly).</summary>
[AttributeUsage(AttributeTargets.Assembly)]
internal sealed class TransportAdapterAttribute(
    [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)] Type adapterType) : Attribute
{
    [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)]
    public Type AdapterType { get; } = adapterType;
}
