using Ingest.Transports.Internal.Adapters;

namespace Ingest.Transports;

/// <summary>
/// The transports this build has: every <see cref="TransportKind"/> but an optional one whose package the build was not
/// given (<see cref="TransportKind.RedHatLinux"/>). For test and benchmark matrices, which must not run what cannot start.
/// </summary>
public static class TransportKinds
{
    private static readonly Lazy<TransportKind[]> s_inThisBuild = new(() => Array.FindAll(Enum.GetValues<TransportKind>(), kind => MissingReason(kind) is null));

    /// <summary>Every transport this build can select, in enum order.</summary>
    public static IReadOnlyList<TransportKind> InThisBuild => s_inThisBuild.Value;

    /// <summary>Null when this build has <paramref name="kind"/>; otherwise why not and how to add it, as one sentence.</summary>
    public static string? MissingReason(TransportKind kind) =>
        TransportAdapters.IsAdapted(kind) && TransportAdapters.Find(kind) is null
            ? $"{kind} is not in this build: {TransportAdapters.RedHatMissing}"
            : null;
}
