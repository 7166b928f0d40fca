using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Tests;

/// <summary>The catalogue's data files (benchmarks/Ingest.Lab/Catalogue): what the reader makes of them, and how it
/// refuses a mistake in them.</summary>
public sealed class CatalogueReaderTests
{
    private const string Index = """
        sets: [one]
        load: { path: /ingest/event, payload: Classic, connections: 50 }
        presets:
          Lean:
            environment: { DOTNET_GCgen0size: '800000' }
        transports:
          Some: [Lean]
        """;

    [Theory]
    [InlineData("transports", "Transports")]
    [InlineData(ScenarioCatalogue.RedHatSet, "RedHatHeadToHead")]
    public void EachLoadOfATransportSetRunsEveryTransportOfItsListInOrderOnBothServices(string set, string list)
    {
        var variants = list == "Transports" ? ScenarioCatalogue.Transports : ScenarioCatalogue.RedHatHeadToHead;
        foreach (var rows in ScenarioCatalogue.InSet(set).GroupBy(s => s.Load.Describe()))
        {
            Assert.Equal(variants.Select(v => Describe(v.Settings, v.Environment)), rows.Select(s => Describe(Kestrel(s.FrontEnd), s.FrontEnd.Environment)));
            Assert.All(rows.Where(s => s.BackEnd is not null), s => Assert.Equal(Describe(Kestrel(s.FrontEnd), s.FrontEnd.Environment), Describe(Kestrel(s.BackEnd!), s.BackEnd!.Environment)));
        }
    }

    [Fact]
    public void ABackEndIsTheFrontEndsTwinOnTheNullSinkWithoutTheForwardingSettings()
    {
        var row = ScenarioCatalogue.InSet("fast").Single(s => s.Name == "aspnet-raw-direct-c50");
        Assert.Equal("LoopDirect", row.FrontEnd.Settings["Forwarding:ClientStrategy"]);
        Assert.Equal(
            ["Ingest:ApiStyle=Raw", "Kestrel:LinuxEpoll:ApplicationSchedulingMode=Inline", "Kestrel:Transport=LinuxEpoll", "Sinks:Default=Null"],
            row.BackEnd!.Settings.Select(s => $"{s.Key}={s.Value}").Order(StringComparer.Ordinal));
        Assert.Equal("File", ScenarioCatalogue.InSet("storage").Single(s => s.Name == "file").BackEnd!.Settings["Sinks:Default"]);
        Assert.Null(ScenarioCatalogue.InSet("micro-endpoints")[0].BackEnd);
    }

    [Fact]
    public void PresetsApplyInOrderBeforeTheRowsOwnSettings()
    {
        var catalogue = Read("""
            scenarios:
              - name: lean-4mb
                title: t
                use: [Lean]
                environment: { DOTNET_GCgen0size: '400000' }
            """);
        Assert.Equal("400000", catalogue.Scenarios.Single().FrontEnd.Environment["DOTNET_GCgen0size"]);
        Assert.Equal("400000", catalogue.Scenarios.Single().BackEnd!.Environment["DOTNET_GCgen0size"]);
    }

    [Theory]
    [InlineData("    use: [Lane]\n", "Catalogue/Sets/one.yml, row: uses 'Lane', which catalogue.yml's presets do not define.", "")]
    [InlineData("    nativeAOT: true\n", "Catalogue/Sets/one.yml (Line: 4, Col: 5, ", "nativeAOT")]
    [InlineData("    settings: { Sinks:Default: Null }\n", "Catalogue/Sets/one.yml, row: gives 'Sinks:Default' no value", "quote")]
    public void AMistakeInASetFileFailsNamingTheFileAndTheRow(string line, string message, string detail)
    {
        var error = Assert.Throws<InvalidOperationException>(() => Read("scenarios:\n  - name: row\n    title: t\n" + line));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Contains(detail, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ASetFileTheIndexDoesNotListIsRefused()
    {
        var error = Assert.Throws<InvalidOperationException>(() => CatalogueReader.Read(
            name => name == "Catalogue/catalogue.yml" ? Index : "scenarios: [{ name: a, title: t }]",
            ["Catalogue/catalogue.yml", "Catalogue/Sets/one.yml", "Catalogue/Sets/two.yml"]));
        Assert.Contains("does not list Sets/two.yml", error.Message, StringComparison.Ordinal);
    }

    private static CatalogueReader.Catalogue Read(string set) => CatalogueReader.Read(
        name => name switch { "Catalogue/catalogue.yml" => Index, "Catalogue/Sets/one.yml" => set, _ => null },
        ["Catalogue/catalogue.yml", "Catalogue/Sets/one.yml"]);

    private static IEnumerable<(string, string)> Kestrel(ServiceSpec spec) =>
        spec.Settings.Where(s => s.Key.StartsWith("Kestrel:", StringComparison.Ordinal)).Select(s => (s.Key, s.Value));

    private static string Describe(IEnumerable<(string Key, string Value)> settings, IReadOnlyDictionary<string, string> environment) =>
        string.Join(" ", settings.Select(s => $"{s.Key}={s.Value}").Concat(environment.Select(e => $"{e.Key}={e.Value}")));
}
