namespace Ingest.Core.Forwarding;

/// <summary>The HTTP version the front-end speaks to its back-ends.</summary>
public enum BackEndProtocol
{
    /// <summary>HTTP/1.1 with keep-alive.</summary>
    Http11,

    /// <summary>HTTP/2 over cleartext with prior knowledge (h2c): many forwards multiplexed on few connections.</summary>
    Http2,
}
