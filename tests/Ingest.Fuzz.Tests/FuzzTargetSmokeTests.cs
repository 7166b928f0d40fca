using Ingest.Testing;

namespace Ingest.Fuzz.Tests;

/// <summary>
/// Runs every fuzz target's entry point (tests/fuzz/Ingest.Fuzz) as afl-fuzz would, over its seed corpus and over
/// seeded mutations of it: a seed that no longer passes, or a mutation that makes a parser throw or break a property,
/// fails here with the input to replay (<c>Ingest.Fuzz &lt;target&gt; &lt;file&gt;</c>).
/// </summary>
public sealed class FuzzTargetSmokeTests
{
    /// <summary>Enough to catch a target that broke, few enough for a few seconds of CI; the search is run.sh's.</summary>
    private const int MutationsPerTarget = 10_000;

    private const int Seed = 20261122;

    public static TheoryData<string> Targets => new(FuzzTargets.All.Select(t => t.Name));

    [Theory]
    [MemberData(nameof(Targets))]
    public void EverySeedPassesItsTarget(string name)
    {
        var target = FuzzTargets.Find(name)!;
        var seeds = Seeds(name);
        Assert.NotEmpty(seeds);
        foreach (var seed in seeds)
        {
            Run(target, File.ReadAllBytes(seed), Path.GetFileName(seed));
        }
    }

    [Theory]
    [MemberData(nameof(Targets))]
    public void SeededMutationsOfTheSeedsPassTheirTarget(string name)
    {
        var target = FuzzTargets.Find(name)!;
        var seeds = Seeds(name).Select(File.ReadAllBytes).ToArray();
        var random = new Random(Seed);
        for (var i = 0; i < MutationsPerTarget; i++)
        {
            Run(target, Mutator.Mutate(seeds[random.Next(seeds.Length)], random), $"mutation {i} (seed {Seed})");
        }
    }

    [Fact]
    public void EverySeedFolderBelongsToATarget()
    {
        var folders = Directory.GetDirectories(Path.Combine(AppContext.BaseDirectory, "Seeds")).Select(Path.GetFileName).Order();
        Assert.Equal(FuzzTargets.All.Select(t => t.Name).Order(), folders);
    }

    private static string[] Seeds(string target) =>
        [.. Directory.GetFiles(Path.Combine(AppContext.BaseDirectory, "Seeds", target)).Order(StringComparer.Ordinal)];

    private static void Run(IFuzzTarget target, byte[] input, string what)
    {
        try
        {
            target.Run(input);
        }
        catch (Exception ex)
        {
            Assert.Fail($"{target.Name}, {what}: {ex}\ninput (base64): {Convert.ToBase64String(input)}");
        }
    }
}
