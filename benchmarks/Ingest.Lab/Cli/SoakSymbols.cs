using System.CommandLine;
using static Ingest.Lab.Cli.OptionKinds;

namespace Ingest.Lab.Cli;

/// <summary>The options of <c>soak</c> and their binding to <see cref="SoakOptions"/>, whose defaults the help shows.</summary>
internal sealed class SoakSymbols
{
    private static readonly SoakOptions Defaults = new();

    public Option<double?> Minutes { get; } = NumberOption("--minutes",
        WithDefault("How long each stack is soaked, in minutes.", Invariant(Defaults.Minutes)), 0, double.MaxValue,
        "soak: --minutes takes a number above 0.");

    public Option<double?> RatePercent { get; } = NumberOption("--rate-percent",
        WithDefault("The rate, in percent of the .NET flow's measured maximum; every stack soaks at that same rate.", Invariant(Defaults.RatePercent)), 0, 100,
        "soak: --rate-percent takes a percentage above 0, at most 100.");

    public Option<IReadOnlyList<string>> Against { get; } = new("--against")
    {
        Description = WithDefault("The peers soaked after .NET at the same rate (Go net/http, and Go fasthttp's and Rust hyper's own pairs), comma-separated, or 'none'.", string.Join(",", Defaults.Against)),
        HelpName = "stacks",
        Arity = ArgumentArity.ExactlyOne,
        CustomParser = result => SoakCommand.ParseAgainst(Value(result)) ?? Reject<IReadOnlyList<string>>(result,
            $"soak: --against takes 'none' or a comma-separated list of {string.Join(", ", SoakCommand.PeerStacks.Keys)}."),
    };

    public Option<bool> Lean { get; } = Switch("--lean", "The .NET services with the lean profile (docs/configuration.md#lean-profile).");

    public Option<bool> Aot { get; } = Switch("--aot", "Both .NET services Native AOT. Not with --trimmed.");

    public Option<bool> Trimmed { get; } = Switch("--trimmed", "Both .NET services published trimmed, on the JIT (docs/configuration.md#trimmed-jit-build).");

    /// <summary>Parses the flags of a <c>soak</c> alone, without the word <c>soak</c>.</summary>
    public static (SoakOptions? Options, IReadOnlyList<string> Errors) Parse(IReadOnlyList<string> args)
    {
        var symbols = new SoakSymbols();
        return symbols.Bind(symbols.AddTo(new Command("soak")).Parse(args, LabCommandLine.Parser));
    }

    public Command AddTo(Command command)
    {
        foreach (var option in new Option[] { Minutes, RatePercent, Against, Lean, Aot, Trimmed })
        {
            command.Options.Add(option);
        }

        return command;
    }

    /// <summary>The soak's options, or what is wrong: the parser's errors, else the <see cref="SoakOptions.Problems"/>.</summary>
    public (SoakOptions? Options, IReadOnlyList<string> Errors) Bind(ParseResult result) =>
        LabCommandLine.Bind(result, r => new SoakOptions
        {
            Minutes = r.GetValue(Minutes) ?? Defaults.Minutes,
            RatePercent = r.GetValue(RatePercent) ?? Defaults.RatePercent,
            Against = r.GetValue(Against) ?? Defaults.Against,
            Lean = r.GetValue(Lean),
            Aot = r.GetValue(Aot),
            Trimmed = r.GetValue(Trimmed),
        }, options => options.Problems());
}
