namespace Ingest.Lab;

/// <summary>What a <c>soak</c> was asked to do (<see cref="SoakCommand"/>), bound from its command line
/// (<see cref="Cli.SoakSymbols"/>). Every problem names its flag.</summary>
internal sealed record SoakOptions
{
    /// <summary>How long each stack is soaked, in minutes (<c>--minutes</c>). Defaults to 10: long enough for a minute of
    /// settling and nine of growth to measure.</summary>
    public double Minutes { get; init; } = 10;

    /// <summary>The soak's rate as a share of the .NET flow's measured maximum, in percent (<c>--rate-percent</c>); every
    /// stack soaks at that same rate. Defaults to 70: loaded, with room for the tail to show.</summary>
    public double RatePercent { get; init; } = 70;

    /// <summary>The Go stacks soaked after .NET at the same rate (<c>--against</c>, names of
    /// <see cref="SoakCommand.PeerStacks"/>; empty for <c>none</c>). Defaults to every one of them.</summary>
    public IReadOnlyList<string> Against { get; init; } = [.. SoakCommand.PeerStacks.Keys];

    /// <summary>The .NET services with the lean profile (<c>--lean</c>). Defaults to off.</summary>
    public bool Lean { get; init; }

    /// <summary>Both .NET services Native AOT (<c>--aot</c>). Defaults to off.</summary>
    public bool Aot { get; init; }

    /// <summary>Both .NET services published trimmed, on the JIT (<c>--trimmed</c>). Defaults to off.</summary>
    public bool Trimmed { get; init; }

    /// <summary>Parses the flags of a <c>soak</c>, without the word <c>soak</c>.</summary>
    public static (SoakOptions? Options, IReadOnlyList<string> Errors) Parse(IReadOnlyList<string> args) => Cli.SoakSymbols.Parse(args);

    /// <summary>What is wrong with these options as a whole; empty when they can run.</summary>
    public IReadOnlyList<string> Problems() => Aot && Trimmed ? ["soak: --aot and --trimmed are two builds; give one."] : [];
}
