using System.CommandLine;
using static Ingest.Lab.Cli.OptionKinds;

namespace Ingest.Lab.Cli;

/// <summary>The options of <c>faults</c> and their binding to <see cref="FaultsOptions"/>, whose defaults the help shows.</summary>
internal sealed class FaultsSymbols
{
    private static readonly FaultsOptions Defaults = new();

    public Option<IReadOnlyList<string>> Only { get; } = new("--only")
    {
        Description = WithDefault("The faults to run, comma-separated: " + string.Join(", ", Faults.Fault.For(Defaults.FaultDuration, Defaults.BandwidthKilobits).Select(f => f.Name)) + ".", "every one"),
        HelpName = "faults",
        Arity = ArgumentArity.ExactlyOne,
        CustomParser = result => [.. Value(result).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)],
    };

    public Option<TimeSpan?> FaultSeconds { get; } = SecondsOption("--seconds",
        WithDefault("How long each fault lasts; the partition lasts 10 s whatever this says.", Seconds(Defaults.FaultDuration)), allowZero: false);

    public Option<TimeSpan?> Before { get; } = SecondsOption("--before",
        WithDefault("Steady load before each fault.", Seconds(Defaults.Before)), allowZero: false);

    public Option<TimeSpan?> Recovery { get; } = SecondsOption("--recovery",
        WithDefault("The time the service has, after a fault, to be back to normal for good.", "the forward's timeout, or an attempt's and the breaker's break together, whichever is longer, + 2 s"), allowZero: false);

    public Option<double?> Rate { get; } = NumberOption("--rate",
        WithDefault("The steady load, requests a second (open loop).", Invariant(Defaults.Rate)), 0, 100_000,
        "faults: --rate takes requests a second above 0, at most 100000.");

    public Option<int?> Connections { get; } = PositiveIntOption("--connections",
        WithDefault("The load's connections to the front-end.", Invariant(Defaults.Connections)));

    public Option<int?> BandwidthKilobits { get; } = PositiveIntOption("--bandwidth-kbit",
        WithDefault("The bandwidth cap, kilobits a second each way.", Invariant(Defaults.BandwidthKilobits)));

    public Option<IReadOnlyDictionary<string, string>> FrontEnd { get; } = SettingsOption("--front-end", "faults",
        "A front-end setting on top of the defaults:", "Forwarding:BreakerBreakSeconds=2");

    public Command AddTo(Command command)
    {
        foreach (var option in new Option[] { Only, FaultSeconds, Before, Recovery, Rate, Connections, BandwidthKilobits, FrontEnd })
        {
            command.Options.Add(option);
        }

        return command;
    }

    /// <summary>The options, or what is wrong: the parser's errors, else the <see cref="FaultsOptions.Problems"/>.</summary>
    public (FaultsOptions? Options, IReadOnlyList<string> Errors) Bind(ParseResult result) =>
        LabCommandLine.Bind(result, r => new FaultsOptions
        {
            Only = r.GetValue(Only) ?? Defaults.Only,
            FaultDuration = r.GetValue(FaultSeconds) ?? Defaults.FaultDuration,
            Before = r.GetValue(Before) ?? Defaults.Before,
            Recovery = r.GetValue(Recovery),
            Rate = r.GetValue(Rate) ?? Defaults.Rate,
            Connections = r.GetValue(Connections) ?? Defaults.Connections,
            BandwidthKilobits = r.GetValue(BandwidthKilobits) ?? Defaults.BandwidthKilobits,
            FrontEndSettings = r.GetValue(FrontEnd) ?? Defaults.FrontEndSettings,
        }, options => options.Problems());
}
