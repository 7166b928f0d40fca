namespace Ingest.Transports.Tests;

/// <summary>
/// A fact about the Red Hat transport for one kind of build: with the package (skipped, saying how to add it, without) or
/// without it (skipped in a build that has it).
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RedHatTransportFactAttribute : FactAttribute
{
    public RedHatTransportFactAttribute(bool withPackage)
    {
        var missing = TransportKinds.MissingReason(TransportKind.RedHatLinux);
        if (withPackage && missing is not null)
        {
            Skip = missing;
        }
        else if (!withPackage && missing is null)
        {
            Skip = "This build includes the Red Hat transport; the test is about a build without it.";
        }
    }
}
