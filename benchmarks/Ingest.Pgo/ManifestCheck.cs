namespace Ingest.Pgo;

/// <summary>
/// A shipped profile's manifest resolved against the code as it is now (<see cref="ProfileManifest.Check"/>): the
/// methods it names, those the code no longer has (a type or method renamed or removed, a state machine or lambda
/// renumbered), and those whose IL changed since the training. A missing method makes the profile stale at once: its
/// counts describe code that is gone and name nothing the compiler can find. A method whose IL changed keeps a
/// profile of its old IL (counts at the wrong offsets, for that method only), so a few are tolerated, up to
/// <see cref="ChangedShareTolerated"/> of the methods.
/// </summary>
internal sealed record ManifestCheck(string Manifest, int Methods, IReadOnlyList<string> Missing, IReadOnlyList<string> Changed)
{
    /// <summary>The share of a manifest's methods whose IL may have changed before the profile counts as stale: a tenth,
    /// so that a small edit does not force a training, while a refactoring of the per-request path does.</summary>
    public const double ChangedShareTolerated = 0.1;

    /// <summary>Whether the profile should be trained again: any method missing, or more changed than tolerated.</summary>
    public bool IsStale => Missing.Count > 0 || Changed.Count > Methods * ChangedShareTolerated;

    /// <summary>What the check found, naming the methods that are missing or changed.</summary>
    public override string ToString() =>
        $"{Path.GetFileName(Manifest)}: of its {Methods} methods {Missing.Count} are missing and {Changed.Count} have other IL " +
        $"(at most {ChangedShareTolerated:P0} may)" +
        string.Concat(Missing.Select(m => "\n  missing: " + m)) + string.Concat(Changed.Select(m => "\n  changed: " + m));
}
