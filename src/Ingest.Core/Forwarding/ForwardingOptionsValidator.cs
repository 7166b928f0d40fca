using Ingest.Core.Configuration;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>Start-up checks of <see cref="ForwardingOptions"/>; every message names the key to change.</summary>
/// <param name="loops">The server transport's loops, when the host has them; <see cref="ClientStrategy.Loop"/> and
/// <see cref="ClientStrategy.LoopDirect"/> need them.</param>
public sealed class ForwardingOptionsValidator(IForwardLoops? loops = null) : IValidateOptions<ForwardingOptions>
{
    /// <summary>Why <paramref name="strategy"/> (<see cref="ClientStrategy.Loop"/> or <see cref="ClientStrategy.LoopDirect"/>)
    /// cannot run, and what to change.</summary>
    public static string LoopNeedsOwnTransport(ClientStrategy strategy) =>
        $"Forwarding:ClientStrategy={strategy} needs a transport whose loops can own the forward's connections: set Kestrel:Transport " +
        "to LinuxEpoll or IoUring (Sockets and Libuv have no such loops, and a fallback to Sockets has none either), or choose " +
        "another Forwarding:ClientStrategy (Static is the usual one).";

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
                "HTTP/1.1 only. Use Protocol=Http11, or ClientStrategy=Loop for h2c over the loops' connections.");
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
