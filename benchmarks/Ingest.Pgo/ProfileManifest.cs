namespace Ingest.Pgo;

/// <summary>
/// What a shipped profile was made from, so a test can tell when the code has moved on from it: the records of a
/// training's text data whose methods are the project's own (by name prefix), each as its header, name and signature
/// in the runtime's own format (the IL size is in the header), without the counts. <see cref="Check"/> resolves them
/// against the assemblies as they are now, as the conversion did against the ones trained: a method that is gone, or
/// whose IL size changed, is one the shipped profile no longer describes (<see cref="ManifestCheck"/>).
/// </summary>
internal static class ProfileManifest
{
    public static int Write(string textProfile, string destination, string namePrefix)
    {
        var written = 0;
        using var output = new StreamWriter(destination);
        output.NewLine = "\n";
        var methods = TextProfile.Read(textProfile)
            .Where(m => m.Name.StartsWith(namePrefix, StringComparison.Ordinal) && !m.IsGenericMethod)
            .DistinctBy(m => (m.Name, m.Signature, m.IlSize))
            .OrderBy(m => m.Name, StringComparer.Ordinal)
            .ThenBy(m => m.Signature, StringComparer.Ordinal);
        foreach (var method in methods)
        {
            output.WriteLine($"@@@ ilSize 0x{method.IlSize:X8} records 0x00000000");
            output.WriteLine("MethodName: " + method.Name);
            output.WriteLine("Signature: " + method.Signature);
            written++;
        }

        return written;
    }

    /// <summary>The manifest's methods resolved against <paramref name="folders"/>: which the code no longer has, and
    /// which no longer have the IL they were trained on (a method of the same name is there, with other IL or
    /// parameters).</summary>
    public static ManifestCheck Check(string manifest, IEnumerable<string> folders)
    {
        using var assemblies = new AssemblySet(folders);
        var result = new ProfileConverter(assemblies).Convert(TextProfile.Read(manifest), new MibcWriter(assemblies));
        return new ManifestCheck(
            manifest,
            result.Records,
            [.. result.LeftOut.Where(m => m.Outcome != Outcome.IlDiffers).Select(m => $"{m.Method} ({m.Outcome})")],
            [.. result.LeftOut.Where(m => m.Outcome == Outcome.IlDiffers).Select(m => m.Method)]);
    }
}
