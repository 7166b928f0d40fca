using System.Diagnostics;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Crank;
using Ingest.Lab.Results;
using Ingest.Lab.Running;
using Ingest.LoadGen;

namespace Ingest.Lab.Tests;

public sealed class LabUnitTests
{
    [Fact]
    public void EveryScenarioHasAUniqueIdAndTheDefaultSetExists()
    {
        var ids = ScenarioCatalogue.All.Select(s => s.Id).ToList();
        Assert.Equal(ids.Count, ids.Distinct().Count());
        Assert.Contains(ScenarioCatalogue.DefaultSet, ScenarioCatalogue.Sets);
        Assert.All(ScenarioCatalogue.Sets, set => Assert.NotEmpty(ScenarioCatalogue.InSet(set)));
        Assert.All(ScenarioCatalogue.All.Where(s => s.Load.Path == "/ingest/event"), s => Assert.NotNull(s.BackEnd));
    }

    [Fact]
    public void TheClassicSetRecreatesThe2016Table()
    {
        var classic = ScenarioCatalogue.InSet("classic");
        Assert.Contains(classic, s => s.FrontEnd.Settings.GetValueOrDefault("Forwarding:ClientStrategy") == "PerRequestBlocking" && s.FrontEnd.Settings["Ingest:Serializer"] == "Newtonsoft");
        Assert.Contains(classic, s => s.FrontEnd.Implementation == Implementation.GoNetHttp && s.FrontEnd.Settings["client"] == "per-request");
        Assert.Contains(classic, s => s.FrontEnd.Implementation == Implementation.GoFastHttp);
        Assert.Equal([50, 300], classic.Select(s => s.Load.Connections).Distinct().Order());
    }

    [Fact]
    public void TheRedHatHeadToHeadPutsTheOriginalBesideSocketsOurFourLinuxEpollVariantsAndIoUringUnderTheSameThreeLoads()
    {
        var set = ScenarioCatalogue.InSet(ScenarioCatalogue.RedHatSet);
        Assert.Equal(["IoUring", "LinuxEpoll", "RedHatLinux", "Sockets"], set.Select(s => s.FrontEnd.Settings["Kestrel:Transport"]).Distinct().Order());
        Assert.Equal(4, ScenarioCatalogue.RedHatHeadToHead.Count(v => v.Settings.Contains(("Kestrel:Transport", "LinuxEpoll"))));
        Assert.All(set.GroupBy(s => s.Load.Describe()), g => Assert.Equal(ScenarioCatalogue.RedHatHeadToHead.Length, g.Count()));
        Assert.DoesNotContain(set, CrankConfig.Covers);
    }

    [Fact]
    public void EveryTransportIsMeasuredUnderTheSameThreeLoadsAndComparedWithSocketsUnderTheSameLoad()
    {
        var transports = ScenarioCatalogue.InSet("transports");
        var kinds = transports.Select(s => s.FrontEnd.Settings["Kestrel:Transport"]).Distinct().Order();
        Assert.Equal(["IoUring", "Libuv", "LinuxEpoll", "Sockets"], kinds);
        var loads = transports.GroupBy(s => s.Load.Describe()).ToList();
        Assert.Equal(3, loads.Count);
        Assert.All(loads, g => Assert.Equal(ScenarioCatalogue.Transports.Length, g.Count()));

        var results = transports.Select(s => new ScenarioResult
        {
            Set = s.Set,
            Name = s.Name,
            Title = s.Title,
            Configuration = new Dictionary<string, string> { ["load"] = s.Load.Describe() },
            Status = ScenarioStatus.Passed,
        }).ToList();
        Assert.All(results, r => Assert.Equal(
            transports.First(s => s.Load.Describe() == r.Configuration["load"]).Name,
            Baselines.For(r, results)!.Name));
    }

    [Theory]
    [InlineData(null, 100.0, true)] // the first phase is never the last
    [InlineData(1000.0, 1400.0, true)] // still getting faster: warm on
    [InlineData(1000.0, 1050.0, false)] // within 5%: warm
    [InlineData(1000.0, 700.0, false)] // slower is noise, not warming
    public void TheWarmUpGoesOnOnlyWhileTheServicesGetFaster(double? previous, double current, bool warmOn) =>
        Assert.Equal(warmOn, Ingest.LoadGen.WarmUpRule.StillRising(previous, current));

    [Fact]
    public void TheStorageSetRunsEachSinkWithTheStoreItNeeds()
    {
        var storage = ScenarioCatalogue.InSet("storage");
        Assert.Equal(["Null", "Memory", "File", "PostgreSql", "Redis"], storage.Select(s => s.BackEnd!.Settings["Sinks:Default"]));
        Assert.All(storage, s => Assert.Equal(50, s.Load.Connections));
        Assert.Equal([StoreKind.PostgreSql], storage.Single(s => s.Name == "postgresql").Stores);
        Assert.Equal([StoreKind.Files], storage.Single(s => s.Name == "file").Stores);
        Assert.Empty(storage.Single(s => s.Name == "null").Stores);

        var packages = Toolchain.PackagesFor(storage, prometheus: true);
        Assert.Contains("postgresql", packages);
        Assert.Contains("redis-server", packages);
        Assert.Contains("prometheus", packages);
    }

    [Fact]
    public void TheSmokeStartsEveryWayOfStartingOnceInTheFirstSetThatHasIt()
    {
        var smoke = StartUpSignature.OnePerSignature(ScenarioCatalogue.All);

        // Every signature of every set is there, once: the smoke starts everything the full sets start, but for the
        // back-end of a profile-guided pair, which is trained alike and started as the plain Native AOT build.
        var signatures = ScenarioCatalogue.All.Select(StartUpSignature.Of).ToHashSet();
        var pairs = smoke.Where(s => s.FrontEnd.ProfileGuided).ToList();
        Assert.NotEmpty(pairs);
        Assert.All(pairs, s => Assert.True(s.BackEnd is { NativeAot: true, ProfileGuided: false }, s.Id));
        Assert.All(pairs, s => Assert.Contains(smoke, other => other.Set == s.Set && !other.FrontEnd.ProfileGuided && StartUpSignature.Of(other).BackEnd == StartUpSignature.Of(s).BackEnd));
        var trainedAsInTheCatalogue = smoke.Select(s => StartUpSignature.Of(ScenarioCatalogue.All.Single(c => c.Id == s.Id)));
        Assert.True(signatures.SetEquals(trainedAsInTheCatalogue));
        Assert.Equal(signatures.Count, smoke.Count);

        // Each in the first set, in catalogue order, that has it: the headline's pairs stand for every set that starts
        // .NET, Go or Rust as they do, and a set that starts nothing new (serializers, classic) runs nothing of its own.
        Assert.All(smoke, s => Assert.Equal(ScenarioCatalogue.All.First(c => StartUpSignature.Of(c) == StartUpSignature.Of(ScenarioCatalogue.All.Single(x => x.Id == s.Id))).Set, s.Set));
        Assert.Equal(["aspnet-default-c50", "go-nethttp-c50", "go-fasthttp-c50", "rust-hyper-c50", "floor-nginx-c50"], smoke.Where(s => s.Set == ScenarioCatalogue.HeadlineSet).Select(s => s.Name));
        Assert.DoesNotContain(smoke, s => s.Set is "classic" or "serializers" or "gc");

        // What a fresh machine broke: a Go front-end with no back-end, Caddy, and Native AOT are each started.
        Assert.Contains(smoke, s => s.FrontEnd.Implementation == Implementation.GoNetHttp && s.BackEnd is null);
        Assert.Contains(smoke, s => s.Set == "proxy" && s.FrontDoor == FrontDoor.Caddy && s.BackEnd is null);
        Assert.Contains(smoke, s => s.Set == "proxy" && s.FrontDoor == FrontDoor.Caddy && s.BackEnd is not null);
        Assert.Contains(smoke, s => s.Set == "aot" && s.FrontEnd.NativeAot && s.BackEnd!.NativeAot);
        Assert.Superset(new HashSet<string> { "DotNet Sockets", "DotNet LinuxEpoll", "DotNet IoUring", "DotNet Libuv" },
            smoke.Select(StartUpSignature.Of).Where(s => s.BackEnd != "none").Select(s => s.FrontEnd).ToHashSet());

        // Of scenarios that start alike, the one that needs 15 s of warm-up gives way to one that does not.
        Assert.All(smoke, s => Assert.Equal(TimeSpan.Zero, s.MinimumWarmup));
    }

    [Fact]
    public void ARunThatOnlyChecksBuildsTheRustPeerInTheDevProfileAndAMeasurementInRelease()
    {
        // The measured peer is the release build (whole-program optimisation), whatever ran before on this checkout;
        // a smoke or a test run builds what the Rust tests build, and Go builds one way.
        Assert.Equal(["--profile", "release"], Artifacts.BuildArguments("rust", checksOnly: false));
        Assert.Equal(["--profile", "dev"], Artifacts.BuildArguments("rust", checksOnly: true));
        Assert.Empty(Artifacts.BuildArguments("go", checksOnly: false));
        Assert.Empty(Artifacts.BuildArguments("go", checksOnly: true));
    }

    [Fact]
    public void SmokeOptionsAreShortDefaultsThatOtherFlagsStillOverrideWhereverTheyStand()
    {
        var (options, errors) = LabOptions.Parse(["--duration", "2", "--set", "all", "--smoke"]);

        Assert.Empty(errors);
        Assert.True(options!.Smoke);
        Assert.Equal(ScenarioCatalogue.Sets, options.Sets);
        Assert.Equal(TimeSpan.FromSeconds(2), options.Duration);
        Assert.Equal(LabOptions.SmokeDefaults.Requests, options.Requests);
        Assert.Equal((1, TimeSpan.Zero), (options.Repeats, options.Warmup));
        Assert.False(LabOptions.Parse(["--set", "all"]).Options!.Smoke);
    }

    [Fact]
    public void LimitsReadMemoryWithItsUnitAndCpusAsAFraction()
    {
        var (options, errors) = LabOptions.Parse(["--limit", "memory=128M,cpus=1.5", "--fit-memory"]);

        Assert.Empty(errors);
        Assert.Equal(new ServiceLimits(128L * 1024 * 1024, 1.5), options!.Limits);
        Assert.Equal("memory=128M,cpus=1.5", options.Limits.Describe());
        Assert.True(options.FitMemory);
        Assert.Equal(2L * 1024 * 1024 * 1024, LabOptions.Parse(["--limit", "memory=2G"]).Options!.Limits.MemoryBytes);
        Assert.True(new LabOptions().Limits.IsNone);
    }

    [Theory]
    [InlineData(new[] { "--set", "nope" }, "--set: unknown scenario set 'nope'")]
    [InlineData(new[] { "--repeat", "0" }, "--repeat expects a whole number above 0")]
    [InlineData(new[] { "--duration", "0" }, "--duration expects seconds above 0")]
    [InlineData(new[] { "--bogus" }, "Unrecognized command or argument '--bogus'")]
    [InlineData(new[] { "--limit", "memory=12" }, "--limit: 'memory=12' is not memory=")]
    [InlineData(new[] { "--limit", "cpus=0" }, "--limit: 'cpus=0' is not")]
    [InlineData(new[] { "--limit", "disk=1G" }, "--limit: 'disk=1G' is not")]
    public void BadOptionsNameTheFlag(string[] args, string message)
    {
        var (options, errors) = LabOptions.Parse(args);
        Assert.Null(options);
        Assert.Contains(errors, e => e.Contains(message, StringComparison.Ordinal));
    }

    [Fact]
    public void SpreadIsTheMedianWithMinAndMax()
    {
        var even = Spread.Of([4.0, 1.0, 3.0, 2.0]);
        Assert.Equal((2.5, 1.0, 4.0, 4), (even.Median, even.Min, even.Max, even.Count));
        Assert.Equal(2.0, Spread.Of([3.0, 1.0, 2.0]).Median);
        Assert.Equal(0.5, Spread.Of([90.0, 100.0, 140.0]).RelativeRange);
    }

    [Fact]
    public void OnlyRangesThatDoNotOverlapAreADifference()
    {
        Assert.True(Comparer.Significant(Spread.Of([100.0, 102.0, 104.0]), Spread.Of([110.0, 111.0, 115.0])));
        Assert.False(Comparer.Significant(Spread.Of([100.0, 102.0, 110.0]), Spread.Of([105.0, 111.0, 115.0])));
    }

    [Theory]
    [InlineData(1000, 0, 1000, true)]
    [InlineData(1000, 16, 1010, true)]
    [InlineData(1000, 16, 999, false)]
    [InlineData(1000, 16, 1017, false)]
    public void TheLossCheckAllowsOnlyTheRequestsOfUnknownOutcome(long acknowledged, long unknown, long persisted, bool passed)
    {
        Assert.Equal(passed, new LossCheck(acknowledged, unknown, persisted).Passed);
    }

    [Fact]
    public async Task ProcFsReadsTheCpuAndMemoryOfARealProcess()
    {
        // Busy for a fixed wall-clock time (not a fixed amount of work), so it outlives the sampling however loaded the
        // machine is; sampled for fifteen intervals, as CI's other suites beside this one can hold the sampler's timer back
        // (600 ms once gave two samples).
        using var busy = Process.Start(new ProcessStartInfo("bash", ["-c", "while [ $SECONDS -lt 10 ]; do :; done"]))!;
        await using var sampler = new ResourceSampler(new Dictionary<string, int> { ["busy"] = busy.Id });
        await Task.Delay(ResourceSampler.Interval * 15);
        var usage = (await sampler.StopAsync())["busy"];
        busy.Kill();
        await busy.WaitForExitAsync();

        Assert.True(usage.Samples >= 3, $"{usage.Samples} samples");
        // Any share at all: the reading is what is tested, and CI runs other suites on the same cores beside this one.
        Assert.True(usage.CpuCores > 0.02, $"a busy loop used {usage.CpuCores} cores");
        Assert.True(usage.PeakResidentBytes > 0);
    }

    [Theory]
    [InlineData(0.0, -0.04, 0.04)] // a GC sawtooth of ±20% around a flat level: no growth
    [InlineData(0.2, 0.17, 0.25)] // the same sawtooth on a 20% rise: the rise
    public void TheSoakMeasuresMemoryGrowthByItsTrendNotByWhereTheSawtoothEnds(double rise, double atLeast, double atMost)
    {
        var samples = new List<SoakSample>();
        for (var i = 1; i <= 60; i++)
        {
            var level = 200.0 * (1 + (rise * i / 60));
            var saw = i % 4 == 0 ? 1.2 : 0.85; // the first sample lands in a trough, the last on a peak
            samples.Add(new SoakSample("back-end", 60 + (i * 10), (long)(level * saw * 1048576), 17, 300));
        }

        var growth = SoakCommand.TrendGrowth(samples);

        Assert.InRange(growth, atLeast, atMost);
        Assert.True((samples[^1].ResidentBytes / (double)samples[0].ResidentBytes) - 1 > rise + 0.3, "first-to-last would have called it a leak");
    }
}
