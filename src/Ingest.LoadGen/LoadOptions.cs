namespace Ingest.LoadGen;

/// <summary>
/// What one load run does: where, how hard, how long. Closed loop (every connection keeps
/// <see cref="Pipeline"/> requests in flight, as wrk does) unless <see cref="Rate"/> is set, which makes it
/// open loop: requests are due at a fixed rate whatever the server does, and latency counts from the time a
/// request was due. Every run is bounded by both <see cref="Duration"/> and <see cref="MaxRequests"/>.
/// Check with <see cref="Validate"/>; <see cref="LoadRunner.RunAsync"/> refuses invalid options.
/// </summary>
public sealed class LoadOptions
{
    /// <summary>The target, an absolute <c>http://</c> URL (TLS is not supported). No default: required.
    /// CLI: <c>--url</c>.</summary>
    public Uri? Url { get; set; }

    /// <summary>Keep-alive connections opened to the target. Defaults to 64. CLI: <c>--connections</c>.</summary>
    public int Connections { get; set; } = 64;

    /// <summary>Requests in flight per connection (HTTP/1.1 pipelining); 1 means none. Defaults to 1.
    /// CLI: <c>--pipeline</c>.</summary>
    public int Pipeline { get; set; } = 1;

    /// <summary>Open loop: requests per second over all connections, due at evenly spaced times. Defaults to
    /// null: closed loop. CLI: <c>--rate</c>.</summary>
    public double? Rate { get; set; }

    /// <summary>Length of the measured phase. Defaults to 10 s. CLI: <c>--duration</c>.</summary>
    public TimeSpan Duration { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Load applied before the measured phase, on the same connections, and not reported.
    /// Defaults to 2 s. CLI: <c>--warmup</c>.</summary>
    public TimeSpan Warmup { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>Closed loop: makes the warm-up adaptive. After <see cref="Warmup"/> it goes on in slices while the
    /// target still gets faster (<see cref="WarmUpRule"/>, the lab's rule), up to this long in all (a limit shorter
    /// than <see cref="Warmup"/> leaves just that first phase); the measured phase then starts on the same connections. Defaults to null: a fixed warm-up of <see cref="Warmup"/>.
    /// CLI: <c>--warmup-limit</c>.</summary>
    public TimeSpan? WarmupLimit { get; set; }

    /// <summary>Most requests sent in the measured phase; the run ends when all of them are answered (or
    /// failed) or when <see cref="Duration"/> is over, whichever comes first. Defaults to 10,000,000.
    /// CLI: <c>--requests</c>.</summary>
    public long MaxRequests { get; set; } = 10_000_000;

    /// <summary>How long a request may wait for its response before it counts as a timeout and its
    /// connection is replaced; also bounds a connect. Checked every 10 ms. Defaults to 10 s.
    /// CLI: <c>--timeout</c>.</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Request method. Defaults to null: GET, or POST when there are bodies. CLI: <c>--method</c>.</summary>
    public string? Method { get; set; }

    /// <summary>Files whose contents are request bodies, sent round-robin (after <see cref="Bodies"/>).
    /// Read once before the run. Defaults to none. CLI: <c>--body</c> (repeatable).</summary>
    public IList<string> BodyFiles { get; } = [];

    /// <summary>In-memory request bodies, sent round-robin. Defaults to none: no body.</summary>
    public IList<ReadOnlyMemory<byte>> Bodies { get; } = [];

    /// <summary>Content-Type of the bodies. Defaults to null: <c>application/json</c> when there are bodies.
    /// CLI: <c>--content-type</c>.</summary>
    public string? ContentType { get; set; }

    /// <summary>Extra request headers, as "Name: value". Host may be overridden; Content-Length and
    /// Transfer-Encoding may not. Defaults to none. CLI: <c>-H</c> / <c>--header</c> (repeatable).</summary>
    public IList<string> Headers { get; } = [];

    /// <summary>Event-loop threads; connections are spread over them. Defaults to
    /// <see cref="Environment.ProcessorCount"/> (never more than <see cref="Connections"/>).
    /// CLI: <c>--threads</c>.</summary>
    public int Threads { get; set; } = Environment.ProcessorCount;

    /// <summary>The request method actually used.</summary>
    public string EffectiveMethod => Method ?? (Bodies.Count + BodyFiles.Count > 0 ? "POST" : "GET");

    /// <summary>Every problem with these options, each naming the CLI flag and the property to fix; empty
    /// when the options can run. Body files are checked for existence here and read by the runner.</summary>
    public IReadOnlyList<string> Validate() => Internal.LoadOptionsValidator.Validate(this);
}
