using System.Globalization;

namespace Ingest.LoadGen.Cli;

/// <summary>Turns the command line into <see cref="LoadOptions"/> plus the CLI-only switches; every error
/// names the flag that caused it.</summary>
internal static class CommandLine
{
    public const string Usage = """
        Usage: Ingest.LoadGen --url http://127.0.0.1:5000/path [options]

          --url URL             target (http:// only); may also be given as the only positional argument
          -c, --connections N   keep-alive connections (default 64)
          --pipeline N          requests in flight per connection (default 1: no pipelining)
          --rate R              open loop: R requests/s in total, latency from the due time (default: closed loop)
          -d, --duration T      measured phase, e.g. 30s, 500ms, 2m (default 10s)
          --warmup T            unreported load before it, same connections (default 2s; 0 for none)
          --warmup-limit T      closed loop: after --warmup, keep warming in 2s slices while the rate still rises
                                by more than 5% (two flat slices end it, as in the lab), up to T in all
                                (never shorter than --warmup)
          --requests N          most requests in the measured phase (default 10000000)
          --timeout T           per request and per connect (default 10s)
          --body FILE           request body; repeat for several, sent round-robin (method becomes POST)
          --method M            request method (default GET, or POST with --body)
          -H, --header "N: v"   extra request header; repeatable
          --content-type TYPE   Content-Type of the bodies (default application/json)
          -t, --threads N       event-loop threads (default: the processor count)
          --json FILE           write the result as JSON (schema: README.md)
          --crank               print Crank's #StartJobStatistics block at the end of stdout
          --loss-check URL      after the run, compare the events acknowledged (warm-up included) with the
                                total the Ingest back-end at URL persisted (its GET /ingest/stats)
          --events-per-request N  events in each request body, for --loss-check (default 1)
          -h, --help            this text

        Durations: a number with us, ms, s, m or h (a bare number is seconds).
        """;

    public static ParsedCommand Parse(IReadOnlyList<string> args)
    {
        var options = new LoadOptions();
        var errors = new List<string>();
        string? json = null;
        Uri? lossCheck = null;
        var eventsPerRequest = 1;
        var crank = false;
        var help = false;
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i];
            string? inline = null;
            if (arg.StartsWith("--", StringComparison.Ordinal) && arg.IndexOf('=', StringComparison.Ordinal) is var eq and > 2)
            {
                inline = arg[(eq + 1)..];
                arg = arg[..eq];
            }

            switch (arg)
            {
                case "-h" or "--help":
                    help = true;
                    break;
                case "--crank":
                    crank = true;
                    break;
                case "--url":
                    if (Value(arg) is { } url)
                    {
                        SetUrl(options, url, arg, errors);
                    }

                    break;
                case "-c" or "--connections":
                    options.Connections = Int(arg, options.Connections);
                    break;
                case "--pipeline":
                    options.Pipeline = Int(arg, options.Pipeline);
                    break;
                case "-t" or "--threads":
                    options.Threads = Int(arg, options.Threads);
                    break;
                case "--requests":
                    if (Value(arg) is { } requests)
                    {
                        if (long.TryParse(requests.Replace("_", "", StringComparison.Ordinal), NumberStyles.Integer, CultureInfo.InvariantCulture, out var count))
                        {
                            options.MaxRequests = count;
                        }
                        else
                        {
                            errors.Add($"--requests expects a whole number; got '{requests}'.");
                        }
                    }

                    break;
                case "--rate":
                    if (Value(arg) is { } rate)
                    {
                        if (double.TryParse(rate, NumberStyles.Float, CultureInfo.InvariantCulture, out var perSecond))
                        {
                            options.Rate = perSecond;
                        }
                        else
                        {
                            errors.Add($"--rate expects requests per second, e.g. 1000; got '{rate}'.");
                        }
                    }

                    break;
                case "-d" or "--duration":
                    options.Duration = Time(arg, options.Duration);
                    break;
                case "--warmup":
                    options.Warmup = Time(arg, options.Warmup);
                    break;
                case "--warmup-limit":
                    // Unset (a fixed warm-up) stays unset when the value does not parse: that error is reported alone.
                    options.WarmupLimit = Time(arg, TimeSpan.MinValue) is var limit && limit != TimeSpan.MinValue ? limit : options.WarmupLimit;
                    break;
                case "--timeout":
                    options.Timeout = Time(arg, options.Timeout);
                    break;
                case "--body":
                    if (Value(arg) is { } body)
                    {
                        options.BodyFiles.Add(body);
                    }

                    break;
                case "--method":
                    if (Value(arg) is { } method)
                    {
                        options.Method = method.ToUpperInvariant();
                    }

                    break;
                case "-H" or "--header":
                    if (Value(arg) is { } header)
                    {
                        options.Headers.Add(header);
                    }

                    break;
                case "--content-type":
                    options.ContentType = Value(arg);
                    break;
                case "--json":
                    json = Value(arg);
                    break;
                case "--loss-check":
                    if (Value(arg) is { } backEnd)
                    {
                        if (Uri.TryCreate(backEnd, UriKind.Absolute, out var uri) && uri.Scheme == Uri.UriSchemeHttp)
                        {
                            lossCheck = uri;
                        }
                        else
                        {
                            errors.Add($"--loss-check expects the back-end's base URL, e.g. http://127.0.0.1:5001; got '{backEnd}'.");
                        }
                    }

                    break;
                case "--events-per-request":
                    eventsPerRequest = Int(arg, eventsPerRequest);
                    if (eventsPerRequest < 1)
                    {
                        errors.Add($"--events-per-request expects 1 or more; got {eventsPerRequest}.");
                    }

                    break;
                default:
                    if (!arg.StartsWith('-') && options.Url is null)
                    {
                        SetUrl(options, arg, "--url", errors);
                    }
                    else
                    {
                        errors.Add($"{arg}: unknown option (see --help).");
                    }

                    break;
            }

            string? Value(string flag)
            {
                if (inline is not null)
                {
                    return inline;
                }

                if (i + 1 < args.Count)
                {
                    return args[++i];
                }

                errors.Add($"{flag} expects a value.");
                return null;
            }

            int Int(string flag, int current)
            {
                var text = Value(flag);
                if (text is null)
                {
                    return current;
                }

                if (int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value))
                {
                    return value;
                }

                errors.Add($"{flag} expects a whole number; got '{text}'.");
                return current;
            }

            TimeSpan Time(string flag, TimeSpan current)
            {
                var text = Value(flag);
                if (text is null)
                {
                    return current;
                }

                if (TryParseDuration(text, out var value))
                {
                    return value;
                }

                errors.Add($"{flag} expects a duration such as 10s, 500ms or 2m; got '{text}'.");
                return current;
            }
        }

        if (!help)
        {
            errors.AddRange(options.Validate());
        }

        return new ParsedCommand(options, json, crank, help, errors) { LossCheck = lossCheck, EventsPerRequest = eventsPerRequest };
    }

    public static bool TryParseDuration(string text, out TimeSpan value)
    {
        value = default;
        text = text.Trim();
        (string Suffix, double Seconds)[] units = [("us", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600)];
        var scale = 1.0;
        foreach (var (suffix, seconds) in units)
        {
            if (text.EndsWith(suffix, StringComparison.OrdinalIgnoreCase) &&
                (suffix != "s" || !text.EndsWith("ms", StringComparison.OrdinalIgnoreCase)) &&
                (suffix != "s" || !text.EndsWith("us", StringComparison.OrdinalIgnoreCase)))
            {
                text = text[..^suffix.Length];
                scale = seconds;
                break;
            }
        }

        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !double.IsFinite(number) ||
            number * scale > TimeSpan.MaxValue.TotalSeconds / 2)
        {
            return false;
        }

        value = TimeSpan.FromSeconds(number * scale);
        return true;
    }

    private static void SetUrl(LoadOptions options, string text, string flag, List<string> errors)
    {
        if (Uri.TryCreate(text, UriKind.Absolute, out var url))
        {
            options.Url = url;
        }
        else
        {
            errors.Add($"{flag} expects an absolute URL such as http://127.0.0.1:5000/plaintext; got '{text}'.");
        }
    }
}
