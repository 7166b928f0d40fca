using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Tests;

/// <summary>TEMPORARY: the data-loaded catalogue is the code-built one, scenario by scenario, but for the aot rows dropped
/// on purpose (no current table or finding of docs/results.md cites them).</summary>
public sealed class CatalogueOracleTests
{
    private static readonly string[] Dropped = ["aot/minimal-jit-trimmed-direct", "aot/minimal-jit-trimmed-lean-direct"];

    [Fact]
    public void TheDataLoadedCatalogueIsTheCodeBuiltOne()
    {
        var code = CodeCatalogue.All.Where(s => !Dropped.Contains(s.Id)).ToList();
        var data = ScenarioCatalogue.All;
        Assert.Equal(code.Select(s => s.Id), data.Select(s => s.Id));
        foreach (var (c, d) in code.Zip(data))
        {
            Assert.Equal((c.Set, c.Name, c.Title), (d.Set, d.Name, d.Title));
            Same(c.Id + " front-end", c.FrontEnd, d.FrontEnd);
            Assert.Equal(c.BackEnd is null, d.BackEnd is null);
            if (c.BackEnd is { } b)
            {
                Same(c.Id + " back-end", b, d.BackEnd!);
            }

            Assert.Equal(c.Load, d.Load);
            Assert.Equal((c.FrontDoor, c.FrontEndInstances, c.MinimumWarmup), (d.FrontDoor, d.FrontEndInstances, d.MinimumWarmup));
            Assert.Equal(c.Stores, d.Stores);
        }

        Assert.Equal(CodeCatalogue.Sets, ScenarioCatalogue.Sets);
        foreach (var set in ScenarioCatalogue.Sets)
        {
            Assert.Equal(CodeCatalogue.ComparisonsIn(set), ScenarioCatalogue.ComparisonsIn(set));
        }

        Assert.Equal(CodeCatalogue.Lean, ScenarioCatalogue.Lean);
        foreach (var (c, d) in new[] { (CodeCatalogue.Transports, ScenarioCatalogue.Transports), (CodeCatalogue.RedHatHeadToHead, ScenarioCatalogue.RedHatHeadToHead) })
        {
            Assert.Equal(c.Select(v => (v.Name, string.Join(";", v.Settings), string.Join(";", v.Environment))),
                d.Select(v => (v.Name, string.Join(";", v.Settings), string.Join(";", v.Environment))));
        }
    }

    private static void Same(string what, ServiceSpec code, ServiceSpec data)
    {
        Assert.True(code.Implementation == data.Implementation, what);
        Assert.True(code.Settings.OrderBy(s => s.Key, StringComparer.Ordinal).SequenceEqual(data.Settings.OrderBy(s => s.Key, StringComparer.Ordinal)),
            $"{what}: settings {string.Join(" ", code.Settings)} != {string.Join(" ", data.Settings)}");
        Assert.True(code.Environment.OrderBy(s => s.Key, StringComparer.Ordinal).SequenceEqual(data.Environment.OrderBy(s => s.Key, StringComparer.Ordinal)),
            $"{what}: environment {string.Join(" ", code.Environment)} != {string.Join(" ", data.Environment)}");
        Assert.True((code.NativeAot, code.Trimmed, code.ProfileGuided, code.ShippedProfile, code.Profile, code.Layout)
            == (data.NativeAot, data.Trimmed, data.ProfileGuided, data.ShippedProfile, data.Profile, data.Layout), what + ": build");
        if (!code.Settings.SequenceEqual(data.Settings))
        {
            Console.WriteLine($"ORDER {what}: {string.Join(" ", code.Settings)} | {string.Join(" ", data.Settings)}");
        }
    }
}
