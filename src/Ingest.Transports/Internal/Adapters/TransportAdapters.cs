using System.Reflection;

namespace Ingest.Transports.Internal.Adapters;

/// <summary>
/// Finds the adapter of a transport that is not part of every build. An app has it when the build referenced the
/// adapter project (the build was given the package); then its assembly is in the app's dependencies and loads by name.
/// </summary>
internal static class TransportAdapters
{
    /// <summary>The adapter assembly of <see cref="TransportKind.RedHatLinux"/>.</summary>
    public const string RedHatAssembly = "Ingest.Transports.RedHat";

    /// <summary>
    /// Why <see cref="TransportKind.RedHatLinux"/> is missing from a build, and how to add it: one sentence for the
    /// start-up failure.
    /// </summary>
    public const string RedHatMissing =
        "this build does not include the Red Hat transport. Its package, RedHat.AspNetCore.Server.Kestrel.Transport.Linux, is on no package feed: build it from its archived source (github.com/redhat-developer/kestrel-linux-transport, retargeted to net10.0; docs/transports.md) and build Ingest with -p:RedHatTransportPackages=<folder holding the .nupkg>.";

    private static readonly Lazy<TransportAdapter?> s_redHat = new(() => Load(RedHatAssembly));

    /// <summary>The adapter for <paramref name="kind"/>, or null when this build does not include it.</summary>
    public static TransportAdapter? Find(TransportKind kind) => kind == TransportKind.RedHatLinux ? s_redHat.Value : null;

    /// <summary>Whether <paramref name="kind"/> is provided by an adapter rather than by this assembly.</summary>
    public static bool IsAdapted(TransportKind kind) => kind == TransportKind.RedHatLinux;

    /// <summary>Null when <paramref name="kind"/>'s adapter is present and says it can run; otherwise why not.</summary>
    public static string? WhyUnavailable(TransportKind kind, IServiceProvider services) =>
        Find(kind) is { } adapter ? adapter.WhyUnavailable(services) : RedHatMissing;

    /// <summary>The adapter, which must be present (start-up validation checked it).</summary>
    public static TransportAdapter Required(TransportKind kind) =>
        Find(kind) ?? throw new InvalidOperationException($"Kestrel:Transport={kind}: {RedHatMissing}");

    private static TransportAdapter? Load(string assemblyName)
    {
        Assembly assembly;
        try
        {
            assembly = Assembly.Load(new AssemblyName(assemblyName));
        }
        catch (FileNotFoundException)
        {
            // Not referenced by this build: the ordinary case.
            return null;
        }

        var attribute = assembly.GetCustomAttribute<TransportAdapterAttribute>()
            ?? throw new InvalidOperationException($"{assemblyName} carries no TransportAdapter attribute.");
        return (TransportAdapter)Activator.CreateInstance(attribute.AdapterType)!;
    }
}
