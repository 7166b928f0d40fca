using Ingest.Transports.Internal.Adapters;

namespace Ingest.Transports.Tests;

/// <summary>Whether this build of the tests carries a transport that only a build given its package has.</summary>
public static class OptionalTransport
{
    /// <summary>Null when <paramref name="kind"/> is in this build; otherwise the skip reason, saying how to add it.</summary>
    public static string? MissingReason(TransportKind kind) =>
        !TransportAdapters.IsAdapted(kind) || TransportAdapters.Find(kind) is not null
            ? null
            : $"{kind} is not in this build: build the tests with -p:RedHatTransportPackages=<folder holding the RedHat.AspNetCore.Server.Kestrel.Transport.Linux package> (docs/transports.md).";
}
