using Ingest.Transports;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The contract suites (the flow matrix, framing faults, HTTP fuzzing) run over every transport this build has. RedHatLinux
/// is only in a build given its package: this test is skipped, saying how to add it, where it is not, so its absence
/// from the matrices is never silent.
/// </summary>
public sealed class OptionalTransportTests
{
    [RedHatLinuxFact]
    public void TheContractSuitesRunOverRedHatLinux() => Assert.Contains(TransportKind.RedHatLinux, TransportKinds.InThisBuild);

    /// <summary>Skipped, with the reason, in a build without the Red Hat transport's package.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    private sealed class RedHatLinuxFactAttribute : FactAttribute
    {
        public RedHatLinuxFactAttribute() => Skip = TransportKinds.MissingReason(TransportKind.RedHatLinux);
    }
}
