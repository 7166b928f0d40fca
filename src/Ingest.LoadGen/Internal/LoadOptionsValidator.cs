namespace Ingest.LoadGen.Internal;

/// <summary>Checks <see cref="LoadOptions"/>; every message names the CLI flag and the property to fix.</summary>
internal static class LoadOptionsValidator
{
    /// <summary>More would only measure the load generator's own memory; wrk's practical limit is similar.</summary>
    public const int MaxConnections = 100_000;

    /// <summary>Deeper pipelines stop being a realistic HTTP/1.1 client.</summary>
    public const int MaxPipeline = 1_024;

    public static IReadOnlyList<string> Validate(LoadOptions options)
    {
        var errors = new List<string>();
        if (options.Url is null)
        {
            errors.Add("--url is required (LoadOptions.Url).");
        }
        else if (!options.Url.IsAbsoluteUri || options.Url.Scheme != Uri.UriSchemeHttp)
        {
            errors.Add($"--url must be an absolute http:// URL (LoadOptions.Url); got '{options.Url}'. TLS is not supported.");
        }

        Check(errors, options.Connections is >= 1 and <= MaxConnections, "--connections", "Connections", $"between 1 and {MaxConnections:N0}", options.Connections);
        Check(errors, options.Pipeline is >= 1 and <= MaxPipeline, "--pipeline", "Pipeline", $"between 1 and {MaxPipeline:N0}", options.Pipeline);
        Check(errors, options.Threads >= 1, "--threads", "Threads", "at least 1", options.Threads);
        Check(errors, options.MaxRequests >= 1, "--requests", "MaxRequests", "at least 1", options.MaxRequests);
        Check(errors, options.Duration > TimeSpan.Zero, "--duration", "Duration", "more than 0", options.Duration);
        Check(errors, options.Warmup >= TimeSpan.Zero, "--warmup", "Warmup", "0 or more", options.Warmup);
        Check(errors, options.Timeout > TimeSpan.Zero, "--timeout", "Timeout", "more than 0", options.Timeout);
        if (options.WarmupLimit is { } limit)
        {
            Check(errors, limit >= TimeSpan.Zero, "--warmup-limit", "WarmupLimit", "0 or more", limit);
            Check(errors, options.Rate is null, "--warmup-limit", "WarmupLimit", "unset in open loop (--rate), whose rate does not rise as the target warms", limit);
        }

        if (options.Rate is { } rate)
        {
            Check(errors, double.IsFinite(rate) && rate > 0, "--rate", "Rate", "a positive number of requests per second", rate);
        }

        var method = options.EffectiveMethod;
        if (method.Length == 0 || !IsToken(method))
        {
            errors.Add($"--method must be an HTTP method token such as GET or POST (LoadOptions.Method); got '{method}'.");
        }

        foreach (var file in options.BodyFiles)
        {
            if (!File.Exists(file))
            {
                errors.Add($"--body file '{file}' does not exist (LoadOptions.BodyFiles).");
            }
        }

        if (options.ContentType is { } contentType && (contentType.Length == 0 || HasLineBreak(contentType)))
        {
            errors.Add($"--content-type must be a media type on one line (LoadOptions.ContentType); got '{contentType}'.");
        }

        foreach (var header in options.Headers)
        {
            if (ValidateHeader(header) is { } problem)
            {
                errors.Add($"-H '{header}': {problem} (LoadOptions.Headers).");
            }
        }

        return errors;
    }

    /// <summary>Null when <paramref name="header"/> is a usable "Name: value" line, else what is wrong.</summary>
    public static string? ValidateHeader(string header)
    {
        var colon = header.IndexOf(':', StringComparison.Ordinal);
        if (colon <= 0)
        {
            return "expected \"Name: value\"";
        }

        var name = header[..colon];
        if (!IsToken(name))
        {
            return "the header name is not a valid token";
        }

        if (HasLineBreak(header))
        {
            return "the header must not contain line breaks";
        }

        if (name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase) ||
            name.Equals("Transfer-Encoding", StringComparison.OrdinalIgnoreCase))
        {
            return "the load generator frames the body itself; this header cannot be set";
        }

        return null;
    }

    private static void Check<T>(List<string> errors, bool valid, string flag, string property, string expected, T actual)
    {
        if (!valid)
        {
            errors.Add($"{flag} must be {expected} (LoadOptions.{property}); got {actual}.");
        }
    }

    private static bool HasLineBreak(string value) => value.AsSpan().IndexOfAny('\r', '\n') >= 0;

    /// <summary>RFC 9110 token: visible ASCII except delimiters.</summary>
    private static bool IsToken(string value)
    {
        foreach (var c in value)
        {
            if (c <= ' ' || c >= 127 || "\"(),/:;<=>?@[\\]{}".Contains(c, StringComparison.Ordinal))
            {
                return false;
            }
        }

        return value.Length > 0;
    }
}
