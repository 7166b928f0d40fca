using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Ingest.Core;

/// <summary>
/// Whether this build can run what reflects over types it does not name: the MVC API style and the reflection-based
/// serializers. True on the JIT as published by default; false under Native AOT (no dynamic code) and in a trimmed
/// publish (<c>-p:PublishTrimmed=true</c>), where Directory.Build.targets sets <see cref="Switch"/> to false so the
/// trimmer drops that code and the assemblies only it needs (MVC, Newtonsoft.Json) instead of keeping them half-trimmed.
/// Every place that decides on it tests this property, so both compilers see the same dead branches.
/// </summary>
public static class ReflectionSupport
{
    /// <summary>The runtime switch a trimmed or Native AOT publish sets to false.</summary>
    public const string Switch = "Ingest.ReflectionSupport.IsEnabled";

    /// <summary>True where MVC and the reflection-based serializers can run.</summary>
    [FeatureSwitchDefinition(Switch)]
    public static bool IsEnabled =>
        RuntimeFeature.IsDynamicCodeSupported && (!AppContext.TryGetSwitch(Switch, out var enabled) || enabled);

    /// <summary>What a build without it is, for messages: "Native AOT" or "trimmed".</summary>
    public static string MissingIn => RuntimeFeature.IsDynamicCodeSupported ? "this trimmed build" : "this Native AOT build";
}
