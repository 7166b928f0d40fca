namespace Ingest.LoadGen.Cli;

/// <summary>The command line, parsed: the run's options, the CLI-only switches, and what was wrong.</summary>
internal sealed record ParsedCommand(LoadOptions Options, string? JsonPath, bool Crank, bool Help, IReadOnlyList<string> Errors);
