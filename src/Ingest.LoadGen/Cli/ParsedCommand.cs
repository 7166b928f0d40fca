using System.CommandLine;

namespace Ingest.LoadGen.Cli;

/// <summary>The command line, parsed: the run's options, the CLI-only switches, and what was wrong.</summary>
internal sealed record ParsedCommand(LoadOptions Options, string? JsonPath, bool Crank, bool Help, IReadOnlyList<string> Errors)
{
    /// <summary>Events in each request body when <c>--events-per-request</c> is not given.</summary>
    public const int DefaultEventsPerRequest = 1;

    /// <summary>The parser's view of the command line: what prints the help, and the errors with the parser's
    /// suggestions for a misspelled option.</summary>
    public required ParseResult Result { get; init; }

    /// <summary>The Ingest back-end whose persisted total is compared with what this run saw acknowledged
    /// (<c>--loss-check</c>); null for no check.</summary>
    public Uri? LossCheck { get; init; }

    /// <summary>Events in each request body (<c>--events-per-request</c>), for the loss check. Defaults to
    /// <see cref="DefaultEventsPerRequest"/>.</summary>
    public int EventsPerRequest { get; init; } = DefaultEventsPerRequest;
}
