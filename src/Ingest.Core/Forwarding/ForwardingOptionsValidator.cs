using Ingest.Core.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>Start-up checks of <see cref="ForwardingOptions"/>; every message names the key to change.</summary>
/// <param name="loops">The server transport's loops, when the host has them; <see cref="ClientStrategy.LoopDirect"/>
/// needs them.</param>
public sealed class ForwardingOptionsValidator(IForwardLoops? loops = null) : IValidateOptions<ForwardingOptions>
{
    // What an old configuration naming the removed strategy reads (docs/transports.md#loop-owned-forward-connections).
    private const string LoopRemoved =
        "Loop (HttpClient on the loops' connections) was removed, as LoopDirect forwards over the same connections for less " +
        "CPU; use LoopDirect, or Static or Factory for HTTP/2.";

    /// <summary>Why <paramref name="strategy"/> (one that <see cref="ClientStrategies.NeedsLoops"/>) cannot run, and what
    /// to change.</summary>
    public static string LoopNeedsOwnTransport(ClientStrategy strategy) =>
        $"Forwarding:ClientStrategy={strategy} needs a transport whose loops can own the forward's connections: set Kestrel:Transport " +
        "to LinuxEpoll or IoUring (Sockets and Libuv have no such loops, and a fallback to Sockets has none either), or choose " +
        "another Forwarding:ClientStrategy (Static is the usual one).";

    /// <summary>Refuses a name that <paramref name="section"/> gives one of its enum keys and the enum lacks, before the
    /// binder reads the section: the message names the key and the names it takes, as <see cref="Validate"/>'s do, where
    /// the binder's own failure names only the key. The front-end calls it as the first step of binding the section.</summary>
    /// <exception cref="OptionsValidationException">A name is not one of its key's.</exception>
    public static void RefuseUnknownNames(IConfiguration section)
    {
        var checks = new OptionChecks(ForwardingOptions.SectionName);
        var strategy = section[nameof(ForwardingOptions.ClientStrategy)];
        checks
            .Named<ClientStrategy>(nameof(ForwardingOptions.ClientStrategy), strategy,
                string.Equals(strategy, "Loop", StringComparison.OrdinalIgnoreCase) ? LoopRemoved : null)
            .Named<ForwardingMode>(nameof(ForwardingOptions.Mode), section[nameof(ForwardingOptions.Mode)])
            .Named<BackEndProtocol>(nameof(ForwardingOptions.Protocol), section[nameof(ForwardingOptions.Protocol)]);
        if (checks.Failures.Count > 0)
        {
            throw new OptionsValidationException(Options.DefaultName, typeof(ForwardingOptions), checks.Failures);
        }
    }

    public ValidateOptionsResult Validate(string? name, ForwardingOptions options)
    {
        var checks = new OptionChecks(ForwardingOptions.SectionName);
        if (options.ClientStrategy.NeedsLoops() && (loops is null || loops.Count == 0))
        {
            checks.Fail(LoopNeedsOwnTransport(options.ClientStrategy));
        }

        if (options.ClientStrategy == ClientStrategy.LoopDirect && options.Protocol != BackEndProtocol.Http11)
        {
            checks.Fail(
                $"{checks.Key(nameof(options.Protocol))} = {options.Protocol} with ClientStrategy=LoopDirect: its own client speaks " +
                "HTTP/1.1 only. Use Protocol=Http11, or ClientStrategy=Static or Factory for h2c.");
        }

        if (options.BackEnds.Length == 0)
        {
            checks.Fail(
                $"{checks.Key(nameof(options.BackEnds))} is empty: set at least one back-end URL, " +
                $"e.g. --{checks.Key(nameof(options.BackEnds))}:0=http://127.0.0.1:5001");
        }

        for (var i = 0; i < options.BackEnds.Length; i++)
        {
            if (!Uri.TryCreate(options.BackEnds[i], UriKind.Absolute, out var uri) || uri.Scheme != Uri.UriSchemeHttp)
            {
                checks.Fail(
                    $"{checks.Key(nameof(options.BackEnds))}:{i} = '{options.BackEnds[i]}' is not an absolute http:// URL " +
                    "(Ingest forwards over cleartext HTTP/1.1 or h2c).");
            }
        }

        if (options.UnixSocketPath is { Length: 0 })
        {
            checks.Fail($"{checks.Key(nameof(options.UnixSocketPath))} is empty: remove it for TCP, or give a socket path.");
        }

        if (options.BreakerFailureRatio is <= 0 or > 1)
        {
            checks.Fail($"{checks.Key(nameof(options.BreakerFailureRatio))} = {options.BreakerFailureRatio} must be above 0 and at most 1.");
        }

        return checks
            .Defined(nameof(options.ClientStrategy), options.ClientStrategy)
            .Defined(nameof(options.Mode), options.Mode)
            .Defined(nameof(options.Protocol), options.Protocol)
            .Range(nameof(options.TimeoutMilliseconds), options.TimeoutMilliseconds, 10, 600_000, "Polly's timeout starts at 10 ms")
            .Range(nameof(options.AttemptTimeoutMilliseconds), options.AttemptTimeoutMilliseconds, 10, 600_000, "Polly's attempt timeout starts at 10 ms")
            .Range(nameof(options.RetryAttempts), options.RetryAttempts, 0, 10, "0 turns retries off")
            .Range(nameof(options.RetryBaseDelayMilliseconds), options.RetryBaseDelayMilliseconds, 1, 60_000)
            .Range(nameof(options.BreakerMinimumThroughput), options.BreakerMinimumThroughput, 2, 1_000_000)
            .Range(nameof(options.BreakerSamplingSeconds), options.BreakerSamplingSeconds, 1, 3_600)
            .Range(nameof(options.BreakerBreakSeconds), options.BreakerBreakSeconds, 0, 3_600, "0 turns the breaker off")
            .Range(nameof(options.MaxInFlight), options.MaxInFlight, 1, 1_000_000)
            .Range(nameof(options.MaxConnectionsPerServer), options.MaxConnectionsPerServer, 0, 100_000, "0 means unlimited")
            .Range(nameof(options.PooledConnectionLifetimeSeconds), options.PooledConnectionLifetimeSeconds, 1, 86_400)
            .Range(nameof(options.HandlerLifetimeSeconds), options.HandlerLifetimeSeconds, 1, 86_400)
            .Range(nameof(options.BatchMaxEvents), options.BatchMaxEvents, 1, 100_000)
            .Range(nameof(options.BatchWindowMilliseconds), options.BatchWindowMilliseconds, 0, 10_000)
            .Range(nameof(options.MaxInFlightBatches), options.MaxInFlightBatches, 1, 1_024)
            .Range(nameof(options.BatchQueueCapacity), options.BatchQueueCapacity, 1, 10_000_000)
            .Result();
    }
}
