namespace Ingest.Lab.Catalogue;

/// <summary>
/// The services can run Kestrel:Transport=RedHatLinux only when they were published with the Red Hat transport's package
/// (docs/transports.md). <c>dotnet publish</c>, which the lab runs, reads the MSBuild property from the environment.
/// </summary>
internal static class RedHatPackage
{
    /// <summary>The MSBuild property (and so environment variable) naming the folder that holds the package.</summary>
    public const string Property = "RedHatTransportPackages";

    /// <summary>Null when the lab's environment names the package folder; otherwise the skip reason.</summary>
    public static string? MissingReason =>
        string.IsNullOrEmpty(Environment.GetEnvironmentVariable(Property))
            ? $"Kestrel:Transport=RedHatLinux needs the RedHat.AspNetCore.Server.Kestrel.Transport.Linux package, which is on no feed: build it from its archived source and run the lab with {Property}=<folder holding the .nupkg> (docs/transports.md)"
            : null;

    public static bool Needs(ServiceSpec spec) =>
        spec.Settings.TryGetValue("Kestrel:Transport", out var transport) && transport == "RedHatLinux";
}
