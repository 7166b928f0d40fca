namespace Ingest.Transports;

/// <summary>
/// Settings of the <see cref="TransportKind.Libuv"/> transport, bound from <c>Kestrel:Libuv</c>. libuv allocates
/// a receive buffer only once a socket is readable, so there is no wait-for-data switch here.
/// </summary>
public sealed class LibuvOptions : NativeTransportOptions
{
    /// <summary>The configuration section: <c>Kestrel:Libuv</c>.</summary>
    public const string SectionName = "Kestrel:Libuv";
}
