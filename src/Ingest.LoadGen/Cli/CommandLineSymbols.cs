using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace Ingest.LoadGen.Cli;

/// <summary>
/// The load generator's options as System.CommandLine symbols, and their binding to <see cref="LoadOptions"/>. Every
/// value option is nullable: "not given" keeps the default of <see cref="LoadOptions"/>, which is also what the help
/// shows, so the help cannot drift from the defaults. A value that does not parse is refused with a message naming
/// the flag as typed (<c>-c</c> or <c>--connections</c>).
/// </summary>
internal sealed class CommandLineSymbols
{
    private static readonly LoadOptions Defaults = new();

    public CommandLineSymbols()
    {
        Root = new RootCommand(
            "Ingest's HTTP/1.1 load generator. The target may also be given as the only positional argument.\n" +
            "Durations: a number with us, ms, s, m or h (a bare number is seconds).")
        {
            Url, Connections, Pipeline, Rate, Duration, Warmup, WarmupLimit, Requests, Timeout, Body, Method, Header,
            ContentType, Threads, Json, Crank, LossCheck, EventsPerRequest,
        };
    }

    public RootCommand Root { get; }

    public Option<Uri> Url { get; } = new("--url")
    {
        Description = WithDefault("Target (http:// only).", "none: required"),
        HelpName = "URL",
        CustomParser = result => Uri.TryCreate(Value(result), UriKind.Absolute, out var url) ? url
            : Refuse<Uri>(result, $"expects an absolute URL such as http://127.0.0.1:5000/plaintext; got '{Value(result)}'."),
    };

    public Option<int?> Connections { get; } = Int("--connections", "Keep-alive connections.", Invariant(Defaults.Connections), "-c");

    public Option<int?> Pipeline { get; } = Int("--pipeline", "Requests in flight per connection; 1 is no pipelining.", Invariant(Defaults.Pipeline));

    public Option<double?> Rate { get; } = new("--rate")
    {
        Description = WithDefault("Open loop: R requests/s in total, latency from the due time.", "closed loop"),
        HelpName = "R",
        CustomParser = result => double.TryParse(Value(result), NumberStyles.Float, CultureInfo.InvariantCulture, out var perSecond) ? perSecond
            : Refuse<double?>(result, $"expects requests per second, e.g. 1000; got '{Value(result)}'."),
    };

    public Option<TimeSpan?> Duration { get; } = Time("--duration", "Measured phase, e.g. 30s, 500ms, 2m.", Seconds(Defaults.Duration), "-d");

    public Option<TimeSpan?> Warmup { get; } = Time("--warmup", "Unreported load before it, on the same connections; 0 for none.", Seconds(Defaults.Warmup));

    public Option<TimeSpan?> WarmupLimit { get; } = Time("--warmup-limit",
        "Closed loop: after --warmup, keep warming in 2s slices while the rate still rises by more than 5% (two flat " +
        "slices end it, as in the lab), up to T in all (never shorter than --warmup).", "none: a fixed warm-up");

    public Option<long?> Requests { get; } = new("--requests")
    {
        Description = WithDefault("Most requests in the measured phase; '_' may group digits.", Invariant(Defaults.MaxRequests)),
        HelpName = "N",
        CustomParser = result => long.TryParse(Value(result).Replace("_", "", StringComparison.Ordinal), NumberStyles.Integer, CultureInfo.InvariantCulture, out var count) ? count
            : Refuse<long?>(result, $"expects a whole number; got '{Value(result)}'."),
    };

    public Option<TimeSpan?> Timeout { get; } = Time("--timeout", "Per request and per connect.", Seconds(Defaults.Timeout));

    public Option<List<string>> Body { get; } = new("--body")
    {
        Description = WithDefault("Request body file; repeat for several, sent round-robin (the method becomes POST).", "none"),
        HelpName = "FILE",
    };

    public Option<string> Method { get; } = new("--method")
    {
        Description = WithDefault("Request method.", "GET, or POST with --body"),
        HelpName = "M",
    };

    public Option<List<string>> Header { get; } = new("--header", "-H")
    {
        Description = WithDefault("Extra request header, \"Name: value\"; repeatable.", "none"),
        HelpName = "\"N: v\"",
    };

    public Option<string> ContentType { get; } = new("--content-type")
    {
        Description = WithDefault("Content-Type of the bodies.", "application/json"),
        HelpName = "TYPE",
    };

    public Option<int?> Threads { get; } = Int("--threads", "Event-loop threads (never more than the connections).",
        $"the processor count, {Invariant(Defaults.Threads)} here", "-t");

    public Option<string> Json { get; } = new("--json")
    {
        Description = WithDefault("Write the result as JSON (schema: README.md).", "none"),
        HelpName = "FILE",
    };

    public Option<bool> Crank { get; } = new("--crank")
    {
        Description = WithDefault("Print Crank's #StartJobStatistics block at the end of stdout.", "off"),
        Arity = ArgumentArity.Zero,
    };

    public Option<Uri> LossCheck { get; } = new("--loss-check")
    {
        Description = WithDefault(
            "After the run, compare the events acknowledged (warm-up included) with the total the Ingest back-end at URL " +
            "persisted (its GET /ingest/stats).", "none"),
        HelpName = "URL",
        CustomParser = result => Uri.TryCreate(Value(result), UriKind.Absolute, out var uri) && uri.Scheme == Uri.UriSchemeHttp ? uri
            : Refuse<Uri>(result, $"expects the back-end's base URL, e.g. http://127.0.0.1:5001; got '{Value(result)}'."),
    };

    public Option<int?> EventsPerRequest { get; } = new("--events-per-request")
    {
        Description = WithDefault("Events in each request body, for --loss-check.", Invariant(ParsedCommand.DefaultEventsPerRequest)),
        HelpName = "N",
        CustomParser = result => !int.TryParse(Value(result), NumberStyles.Integer, CultureInfo.InvariantCulture, out var count)
            ? Refuse<int?>(result, $"expects a whole number; got '{Value(result)}'.")
            : count < 1 ? Refuse<int?>(result, $"expects 1 or more; got {count}.") : count,
    };

    /// <summary>The run a command line that parsed describes; <see cref="LoadOptions.Validate"/> is not applied here.</summary>
    public ParsedCommand Bind(ParseResult result)
    {
        var options = new LoadOptions
        {
            Url = result.GetValue(Url),
            Connections = result.GetValue(Connections) ?? Defaults.Connections,
            Pipeline = result.GetValue(Pipeline) ?? Defaults.Pipeline,
            Rate = result.GetValue(Rate),
            Duration = result.GetValue(Duration) ?? Defaults.Duration,
            Warmup = result.GetValue(Warmup) ?? Defaults.Warmup,
            WarmupLimit = result.GetValue(WarmupLimit),
            MaxRequests = result.GetValue(Requests) ?? Defaults.MaxRequests,
            Timeout = result.GetValue(Timeout) ?? Defaults.Timeout,
            Method = result.GetValue(Method)?.ToUpperInvariant(),
            ContentType = result.GetValue(ContentType),
            Threads = result.GetValue(Threads) ?? Defaults.Threads,
        };
        foreach (var body in result.GetValue(Body) ?? [])
        {
            options.BodyFiles.Add(body);
        }

        foreach (var header in result.GetValue(Header) ?? [])
        {
            options.Headers.Add(header);
        }

        return new ParsedCommand(options, result.GetValue(Json), result.GetValue(Crank), Help: false, Errors: [])
        {
            Result = result,
            LossCheck = result.GetValue(LossCheck),
            EventsPerRequest = result.GetValue(EventsPerRequest) ?? ParsedCommand.DefaultEventsPerRequest,
        };
    }

    /// <summary>The help's "[default: …]", written out because a <see cref="TimeSpan"/> would print as 00:00:10 and a
    /// nullable option has no default of its own: the value comes from <see cref="LoadOptions"/>.</summary>
    private static string WithDefault(string description, string value) => $"{description} [default: {value}]";

    private static string Seconds(TimeSpan value) => value.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + "s";

    private static string Invariant(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static Option<int?> Int(string name, string description, string value, params string[] aliases) => new(name, aliases)
    {
        Description = WithDefault(description, value),
        HelpName = "N",
        CustomParser = result => int.TryParse(Value(result), NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) ? number
            : Refuse<int?>(result, $"expects a whole number; got '{Value(result)}'."),
    };

    private static Option<TimeSpan?> Time(string name, string description, string value, params string[] aliases) => new(name, aliases)
    {
        Description = WithDefault(description, value),
        HelpName = "T",
        CustomParser = result => CommandLine.TryParseDuration(Value(result), out var duration) ? duration
            : Refuse<TimeSpan?>(result, $"expects a duration such as 10s, 500ms or 2m; got '{Value(result)}'."),
    };

    private static string Value(ArgumentResult result) => result.Tokens[0].Value;

    /// <summary>Records "<c>flag</c> <paramref name="problem"/>" with the flag as it was typed, and no value.</summary>
    private static T? Refuse<T>(ArgumentResult result, string problem)
    {
        var flag = (result.Parent as OptionResult)?.IdentifierToken?.Value ?? result.Argument.Name;
        result.AddError($"{flag} {problem}");
        return default;
    }
}
